/**
 * READ_DATABASE_URL (issue 34, README "Configuration", core/context.ts replicaOf): which reads may go
 * to a replica. The "replica" here is a second database made from the same template that never
 * receives the platform's writes: a standby lagging forever, so every read that goes to it shows.
 * Only the storefront's shared catalog pages and the App API's catalog lists may see it; every read
 * that follows the reader's own write (by id, the cart, checkout, the admin) sees the primary.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { testDatabase } from "../../../db/testing/database";
import { startPlatform } from "../testing/platform";
import { createApp } from "../apps/apps.server";
import { getAccount } from "../accounts/accounts.server";
import { testInstall } from "../installs/test-installs.server";

const replica = await testDatabase();
const p = await startPlatform({ readDb: replica.db });

describe("with a replica that lags", async () => {
  const dev = await p.register("DEVELOPER");
  const { app } = await createApp(p.db, p.env, dev.account.id, {
    name: "Replica app",
    slug: `replica-${dev.account.id.slice(-6)}`,
    description: "Reads",
    category: "other",
    scopes: ["read_products", "read_reviews", "read_pages", "read_orders", "write_orders"],
    redirectUrl: "https://replica.example/cb",
    webhookUrl: null,
    webhookEvents: [],
  } as never);
  const install = await testInstall(p.db, p.env, (await getAccount(p.db, dev.account.id))!, app.id);
  const auth = { Authorization: `Bearer ${install.accessToken}` };
  const [business] = await p.db.execute<{ slug: string }>(
    sql`select slug from businesses where id = ${dev.businessId}`,
  );
  const [product] = await p.db.execute<{ id: string; slug: string }>(
    sql`select id, slug from products where business_id = ${dev.businessId} order by created_at limit 1`,
  );

  it("the App API's catalog lists read the replica (which has not seen the sandbox yet)", async () => {
    for (const path of ["/app-api/products", "/app-api/reviews", "/app-api/pages"]) {
      const res = await p.request("GET", path, { headers: auth });
      expect(res.status, path).toBe(200);
      expect(res.json.data, path).toEqual([]);
    }
    // the primary has them: the replica is the only place these lists could have come from
    const [n] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from products where business_id = ${dev.businessId}`,
    );
    expect(n.n).toBeGreaterThan(0);
  });

  it("a write then an immediate read by the same caller sees the write (the order, by id and in its list)", async () => {
    const place = () =>
      p.request("POST", "/app-api/orders", {
        headers: { ...auth, "Idempotency-Key": "replica-1" },
        body: {
          customer: { name: "Read Back", phone: "555" },
          items: [{ productId: product.id, quantity: 1 }],
          deliveryMethod: "PICKUP",
          paymentMethod: "CASH",
        },
      });
    const placed = await place();
    expect(placed.status).toBe(201);
    const byId = await p.request("GET", `/app-api/orders/${placed.json.id}`, { headers: auth });
    expect(byId.status).toBe(200);
    expect(byId.json.id).toBe(placed.json.id);
    const list = await p.request("GET", "/app-api/orders", { headers: auth });
    expect(list.json.data.map((o: { id: string }) => o.id)).toContain(placed.json.id);
    // the same key again is answered from the primary's idempotency record: the same order
    const again = await place();
    expect(again.json.id).toBe(placed.json.id);
  });

  it("the storefront's shared pages read the replica; a shopper with a cart reads the primary", async () => {
    const shared = await p.request("GET", `/s/${business.slug}`);
    expect(shared.status).toBe(404); // the replica does not know the shop yet
    const withCart = await p.request("GET", `/s/${business.slug}/products/${product.slug}`, {
      headers: { Cookie: "__cart=anything" },
    });
    expect(withCart.status).toBe(200);
  });
});
