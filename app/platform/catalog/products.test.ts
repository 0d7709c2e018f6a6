import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import {
  createProduct,
  createReview,
  deleteProduct,
  deleteReview,
  updateProduct,
  productSchema,
} from "./products.server";
import { fanOut } from "../webhooks/delivery.server";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const other = await p.register("MERCHANT");

const events = async (filter: string) =>
  p.db.execute<{ type: string; data: any }>(
    sql`select type, data from platform_events where business_id = ${merchant.businessId} and data::text like ${"%" + filter + "%"} order by created_at, id`,
  );

describe("catalogue changes and their events", () => {
  it("emits product.created, product.updated, stock threshold events and product.deleted", async () => {
    const product = await createProduct(
      p.db,
      merchant.businessId,
      productSchema.parse({ name: "Matcha Latte", price: 450, stock: 10 }),
    );
    expect(product.slug).toBe("matcha-latte");
    await updateProduct(p.db, merchant.businessId, product.id, { stock: 3 });
    await updateProduct(p.db, merchant.businessId, product.id, { stock: 0 });
    await updateProduct(p.db, merchant.businessId, product.id, { stock: 20 });
    await deleteProduct(p.db, merchant.businessId, product.id);
    const types = (await events(product.id)).map((e) => e.type);
    expect(types).toEqual([
      "product.created",
      "product.updated",
      "product.low_stock",
      "product.updated",
      "product.out_of_stock",
      "product.updated",
      "product.back_in_stock",
      "product.deleted",
    ]);
    const created = (await events(product.id))[0];
    // recorded in the newest API version's shape; each app receives it in its own (decision 041)
    expect(created.data).toMatchObject({
      id: product.id,
      name: "Matcha Latte",
      price: { amount: 450, currency: "USD" },
      stock: 10,
    });
    // every public event was fanned out in its own transaction (no registration here: no deliveries), none waits for a fan-out job
    const [fanned] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from platform_events where (data->>'id' = ${product.id} or data->>'productId' = ${product.id}) and fanned_out_at = created_at`,
    );
    expect(fanned.n).toBe(8);
  });

  it("emits review.created and review.deleted, and keeps tenants apart", async () => {
    const product = await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Scone", price: 300 }));
    const review = await createReview(p.db, merchant.businessId, product.id, {
      rating: 5,
      comment: "Lovely",
      authorName: "Jo",
    });
    await expect(deleteReview(p.db, other.businessId, review.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      createReview(p.db, other.businessId, product.id, { rating: 1, comment: "", authorName: "X" }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(updateProduct(p.db, other.businessId, product.id, { name: "Stolen" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(deleteProduct(p.db, other.businessId, product.id)).rejects.toMatchObject({ status: 404 });
    await deleteReview(p.db, merchant.businessId, review.id);
    const types = (await events(review.id)).map((e) => e.type);
    expect(types).toEqual(["review.created", "review.deleted"]);
  });

  it("refuses a duplicate slug with 409", async () => {
    await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Bagel", price: 200 }));
    await expect(
      createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Bagel", price: 250 })),
    ).rejects.toMatchObject({ status: 409 });
    // another business may use it
    await createProduct(p.db, other.businessId, productSchema.parse({ name: "Bagel", price: 250 }));
  });

  it("fans out nothing when no installation subscribes", async () => {
    const [e] = await p.db.execute<{ id: string }>(
      sql`select id from platform_events where business_id = ${merchant.businessId} limit 1`,
    );
    expect(await fanOut(p.db, e.id)).toBe(0);
  });
});
