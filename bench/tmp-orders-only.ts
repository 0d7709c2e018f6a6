import http from "node:http";
import { startBench, developer, stopCluster } from "./lib";
import { testInstallToken } from "./fixtures";
const b = await startBench({ worker: process.env.WORKER === "1", workerConcurrency: 20 });
const dev = await developer(b);
const { token } = await testInstallToken(b, dev, ["write_orders", "read_orders", "read_products"]);
const products = (
  await b.db.sql<
    { id: string }[]
  >`select id from products where business_id = ${dev.business.id} and status = 'ACTIVE' and is_available and stock is null order by id`
).map((r) => r.id);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const post = (body: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request(
      `${b.web.url}/app-api/orders`,
      { method: "POST", agent, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
let next = 0;
const N = 1000;
const t0 = Date.now();
await Promise.all(
  Array.from({ length: 8 }, async () => {
    for (let i = next++; i < N; i = next++)
      await post(
        JSON.stringify({
          customer: { name: "S", phone: "555 0100" },
          items: [{ productId: products[i % products.length], quantity: 1 }],
          deliveryMethod: "PICKUP",
          paymentMethod: "CASH",
        }),
      );
  }),
);
console.log("orders/s", Math.round(N / ((Date.now() - t0) / 1000)));
await b.close();
await stopCluster();
process.exit(0);
