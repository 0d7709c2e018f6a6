/**
 * Merchants' replies to shoppers' reviews (contract 20, decision 060) against the real server:
 * POST and DELETE /merchant/reviews/<id>/reply, their validation, another business's review as
 * 404, the reply in the App API's review (both API versions), on the storefront's product page,
 * and the storefront's content version bumped by each change.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";

import { appBody } from "../apps/apps.test-helpers";
import { installCast, installThroughOAuth } from "../testing/install";
import { createProduct, createReview, productSchema } from "./products.server";

const p = await startPlatform();
const { reviewer, dev, merchant, other, browser } = await installCast(p);
const { token: appToken } = await installThroughOAuth(
  p,
  { developer: dev, reviewer, merchant: browser },
  appBody({ scopes: ["read_reviews"] }),
);
const product = await createProduct(
  p.db,
  merchant.businessId,
  productSchema.parse({ name: "Canvas sneaker", slug: "canvas-sneaker", price: 5900 }),
);
const [business] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;

const review = (comment: string) =>
  createReview(p.db, merchant.businessId, product.id, { rating: 4, comment, authorName: "Ada" });
const reply = (id: string, body: unknown, token = merchant.token) =>
  p.request("POST", `/merchant/reviews/${id}/reply`, { token, body });
const unreply = (id: string, token = merchant.token) => p.request("DELETE", `/merchant/reviews/${id}/reply`, { token });
const version = async () =>
  (
    await p.sql<{ v: number }[]>`
      select coalesce((select version from storefront_versions where business_id = ${merchant.businessId}), 0) as v`
  )[0].v;

describe("POST /merchant/reviews/<id>/reply", () => {
  it("answers 201 with the reply, trimmed; answering again replaces it", async () => {
    const r = await review("Comfortable, runs a little small.");
    const first = await reply(r.id, { body: "  Thank you! Try half a size up.  " });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({
      reviewId: r.id,
      body: "Thank you! Try half a size up.",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const second = await reply(r.id, { body: "Thank you, Ada." });
    expect(second.status).toBe(201);
    const [row] = await p.sql`select reply_body from reviews where id = ${r.id}`;
    expect(row.reply_body).toBe("Thank you, Ada.");
  });

  it("refuses an empty, blank, over-long, missing or non-text body with 400 naming the field", async () => {
    const r = await review("Nice");
    for (const body of [
      { body: "" },
      { body: "   " },
      { body: "x".repeat(2001) },
      {},
      { body: 5 },
      { body: "ok", extra: 1 },
    ]) {
      const res = await reply(r.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.statusCode).toBe(400);
      expect(res.json.message).toMatch(/body|extra/);
    }
    expect((await reply(r.id, { body: "x".repeat(2000) })).status).toBe(201);
  });

  it("answers 404 for another business's review and an unknown one, and leaves that review alone", async () => {
    const r = await review("Mine");
    const theirs = await reply(r.id, { body: "Not my shop" }, other.token);
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ statusCode: 404, error: "Not Found", message: "Review not found" });
    expect((await unreply(r.id, other.token)).status).toBe(404);
    expect((await reply("rev_nothere", { body: "Hello" })).status).toBe(404);
    const [row] = await p.sql`select reply_body from reviews where id = ${r.id}`;
    expect(row.reply_body).toBeNull();
  });

  it("DELETE removes the reply (204), and is 404 when there is none", async () => {
    const r = await review("Good");
    await reply(r.id, { body: "Thanks" });
    const removed = await unreply(r.id);
    expect(removed.status).toBe(204);
    const [row] = await p.sql`select reply_body, reply_created_at from reviews where id = ${r.id}`;
    expect(row).toEqual({ reply_body: null, reply_created_at: null });
    const again = await unreply(r.id);
    expect(again.status).toBe(404);
    expect(again.json.message).toBe("The review has no reply");
  });
});

describe("where the reply shows", () => {
  it("in the App API's review: reply {body, createdAt} or null from 2026-11-27; 2026-11-21 keeps its shape", async () => {
    const r = await review("Great laces");
    const before = await p.request("GET", "/app-api/reviews?limit=50", {
      token: appToken,
      headers: { "Api-Version": "2026-11-27" },
    });
    expect(before.json.data.find((x: { id: string }) => x.id === r.id).reply).toBeNull();
    const made = await reply(r.id, { body: "Glad you like them" });
    const list = async (apiVersion: string) => {
      const res = await p.request("GET", "/app-api/reviews?limit=50", {
        token: appToken,
        headers: { "Api-Version": apiVersion },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.data.find((x: { id: string }) => x.id === r.id);
    };
    expect((await list("2026-11-27")).reply).toEqual({ body: "Glad you like them", createdAt: made.json.createdAt });
    // a version change of 2026-11-27 (app-api/version-changes.ts): the older version's reviews are as they were
    expect(await list("2026-11-21")).not.toHaveProperty("reply");
  });

  it("under the review on the storefront's product page, and each change bumps the content version", async () => {
    const r = await review("Sturdy soles");
    const v0 = await version();
    await reply(r.id, { body: "Made to last <b>years</b>." });
    const v1 = await version();
    expect(v1).toBeGreaterThan(v0);
    const page = await p.request("GET", `/s/${business.slug}/products/${product.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Reply from");
    // shown as text, never as markup
    expect(page.text).toContain("Made to last &lt;b&gt;years&lt;/b&gt;.");
    await unreply(r.id);
    expect(await version()).toBeGreaterThan(v1);
    const after = await p.request("GET", `/s/${business.slug}/products/${product.slug}`);
    expect(after.text).not.toContain("Made to last");
  });
});
