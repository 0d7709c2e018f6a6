/**
 * B2e's outside world, in a process of its own (as shoppers, apps and an app's webhook endpoint are
 * outside the platform): a webhook receiver that answers 200 at once and records when each order's
 * delivery arrived, and the clients that place the orders. Driven by the benchmark over IPC, so the
 * measured process holds only what is measured: the platform (web and worker), or the floor
 * (graphile-worker and its clients that insert orders).
 */
import http from "node:http";

type Msg =
  | { id: number; cmd: "receiver" }
  | { id: number; cmd: "reset" }
  | { id: number; cmd: "wait"; n: number }
  | { id: number; cmd: "api"; url: string; token: string; bodies: string[]; clients: number }
  | { id: number; cmd: "storefront"; base: string; shop: string; products: string[]; total: number; clients: number };

let receivedAt = new Map<string, number>();
let latencies: number[] = [];
let duplicates = 0;

const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    res.writeHead(200).end();
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const id = body.data.orderId as string;
    if (receivedAt.has(id)) return void duplicates++;
    receivedAt.set(id, at);
    latencies.push(at - Date.parse(body.data.createdAt));
  });
});
receiver.keepAliveTimeout = 60_000;

/** Runs `total` calls of `one` over `count` concurrent loops. */
async function loops(total: number, count: number, one: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      for (let i = next++; i < total; i = next++) await one(i);
    }),
  );
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One shopper's browser: a cookie jar, the storefront's CSRF token once it has a cart, over a keep-alive agent. */
function shopper(base: string, agent: http.Agent) {
  const cookies = new Map<string, string>();
  let csrf = "";
  const send = (method: string, path: string, form?: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const body = form ? new URLSearchParams({ csrf, ...form }).toString() : undefined;
      const headers: Record<string, string> = { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
      // a browser's form POST names its origin (decision 021: a shopper without a cart holds no token,
      // and the storefront takes their first cart on the browser's word that the form is its own)
      if (body)
        Object.assign(headers, {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: new URL(base).origin,
          "Sec-Fetch-Site": "same-origin",
        });
      const req = http.request(base + path, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          for (const c of res.headers["set-cookie"] ?? []) {
            const [pair] = c.split(";");
            const eq = pair.indexOf("=");
            cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
          }
          const text = Buffer.concat(chunks).toString();
          csrf = /"csrf":"([^"]+)"/.exec(text)?.[1] ?? csrf;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  return { send };
}

async function handle(msg: Msg): Promise<unknown> {
  switch (msg.cmd) {
    case "receiver":
      if (!receiver.listening) await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
      return { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks` };
    case "reset":
      receivedAt = new Map();
      latencies = [];
      duplicates = 0;
      return {};
    case "wait": {
      const deadline = Date.now() + 300_000;
      while (receivedAt.size < msg.n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      if (receivedAt.size < msg.n) throw new Error(`only ${receivedAt.size} of ${msg.n} deliveries arrived`);
      return { count: receivedAt.size, lastReceipt: Math.max(...receivedAt.values()), latencies, duplicates };
    }
    case "api": {
      const agent = new http.Agent({ keepAlive: true, maxSockets: msg.clients });
      const post = (body: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            msg.url,
            {
              method: "POST",
              agent,
              headers: { Authorization: `Bearer ${msg.token}`, "Content-Type": "application/json" },
            },
            (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            },
          );
          req.on("error", reject);
          req.end(body);
        });
      let errors = 0;
      let lastOrder = 0;
      const started = Date.now();
      await loops(msg.bodies.length, msg.clients, async (i) => {
        if ((await post(msg.bodies[i])) !== 201) errors++;
        lastOrder = Date.now();
      });
      agent.destroy();
      return { started, lastOrder, errors };
    }
    case "storefront": {
      const agent = new http.Agent({ keepAlive: true, maxSockets: msg.clients * 2 });
      const shoppers = await Promise.all(
        Array.from({ length: msg.clients }, async () => {
          const s = shopper(msg.base, agent);
          await s.send("GET", msg.shop);
          return s;
        }),
      );
      let failed = 0;
      let next = 0;
      let lastOrder = 0;
      const started = Date.now();
      await Promise.all(
        shoppers.map(async (s) => {
          for (let i = next++; i < msg.total; i = next++) {
            await s.send("POST", `${msg.shop}/cart`, {
              intent: "add",
              productId: msg.products[i % msg.products.length],
              quantity: "1",
            });
            const form = await s.send("GET", `${msg.shop}/checkout`);
            const checkoutKey = /name="checkoutKey" value="([^"]+)"/.exec(form.body)?.[1] ?? "";
            // the total for pickup, as the page's fetcher asks for it when the shopper picks it; sent back with the order
            const quote = await s.send("GET", `${msg.shop}/checkout/quote?deliveryMethod=PICKUP`);
            const quotedAmount = String(JSON.parse(quote.body).amount);
            const placed = await s.send("POST", `${msg.shop}/checkout`, {
              checkoutKey,
              quotedAmount,
              name: `Shopper ${i}`,
              phone: "555 0100",
              deliveryMethod: "PICKUP",
              paymentMethod: "CASH",
            });
            if (placed.status !== 302 || !String(placed.headers.location).includes("/orders/")) failed++;
            lastOrder = Date.now();
          }
        }),
      );
      agent.destroy();
      return { started, lastOrder, failed };
    }
  }
}

process.on("message", (msg: Msg) => {
  handle(msg).then(
    (result) => process.send!({ id: msg.id, result }),
    (e: Error) => process.send!({ id: msg.id, error: e.message }),
  );
});
process.on("disconnect", () => process.exit(0));
