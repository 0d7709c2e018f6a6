/**
 * The shop of B4 and B4c: a merchant with the demo catalogue whose home page has the three built-in
 * blocks and five app blocks of one installed app, which also has two GLOBAL_SCRIPT embeds and a
 * FLOATING_WIDGET (B4's "rich" shop). Optionally a plain shop with the same built-in blocks only.
 */
import { asc, eq } from "drizzle-orm";
import type { Bench } from "./lib";
import { products } from "../db/schema";
import { createAccount } from "../app/platform/accounts/accounts.server";
import { createApp, submitApp } from "../app/platform/apps/apps.server";
import { approveApp } from "../app/platform/apps/review.server";
import { createInstallation, issueAccessToken } from "../app/platform/installs/installs.server";
import { savePage } from "../app/platform/extensions/merchant.server";
import { REVIEW_CRITERIA_KEYS } from "../app/platform/shapes/app-catalog";

export const BASE_BLOCKS = [
  { kind: "builtin", type: "heading", settings: { text: "Welcome" } },
  { kind: "builtin", type: "text", settings: { text: "Fresh food, made to order." } },
  { kind: "builtin", type: "product-grid", settings: { limit: 8 } },
];

export type BenchShop = {
  businessId: string;
  slug: string;
  merchantId: string;
  productSlugs: string[];
  productIds: string[];
};

export async function richShop(
  b: Bench,
  options: { plain?: boolean } = {},
): Promise<{ rich: BenchShop; plain: BenchShop | null }> {
  const db = b.db.db;
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  /** An account `<letter><stamp>@bench.test` named by its letter; a merchant gets a demo business. */
  const account = (letter: string, role: "DEVELOPER" | "REVIEWER" | "MERCHANT", businessName?: string) =>
    createAccount(db, {
      email: `${letter.toLowerCase()}${stamp}@bench.test`,
      password: "bench-password",
      name: letter,
      role,
      ...(businessName ? { businessName: `${businessName} ${stamp}`, withDemoData: true } : {}),
    });
  const dev = await account("D", "DEVELOPER");
  const rev = await account("R", "REVIEWER");
  const rich = await account("M", "MERCHANT", "Rich");
  const plain = options.plain ? await account("P", "MERCHANT", "Plain") : null;
  const origin = "https://widgets.bench.example";
  const manifest = {
    blocks: [1, 2, 3, 4, 5].map((i) => ({
      blockType: `b${i}`,
      name: `Block ${i}`,
      renderUrl: `${origin}/block/${i}`,
      settingsSchema: { type: "object", properties: { color: { type: "string" } } },
      defaultConfig: { color: "#123456" },
    })),
    embeds: [
      { embedType: "s1", name: "Script 1", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl: `${origin}/s1.js` },
      {
        embedType: "s2",
        name: "Script 2",
        kind: "GLOBAL_SCRIPT",
        position: "body_end",
        scriptUrl: `https://cdn.bench.example/s2.js`,
      },
      {
        embedType: "w1",
        name: "Widget",
        kind: "FLOATING_WIDGET",
        position: "bottom_right",
        renderUrl: `${origin}/widget`,
      },
    ],
  };
  const { app } = await createApp(db, b.env, dev.account.id, {
    name: "Bench widgets",
    slug: `bench-widgets-${stamp}`,
    description: "x",
    category: "other",
    scopes: ["read_business"],
    redirectUrl: "https://bench.example/cb",
    manifest,
  } as never);
  await submitApp(db, dev.account.id, app.id);
  const approved = await approveApp(db, rev.account.id, app.id, REVIEW_CRITERIA_KEYS);
  await db.transaction(async (tx) => {
    const { installation } = await createInstallation(tx, b.env, {
      app: approved,
      businessId: rich.business!.id,
      scopes: ["read_business"],
      isTestInstall: false,
      installedBy: rich.account.id,
    });
    await issueAccessToken(tx, installation);
  });
  await savePage(db, rich.business!.id, "home", {
    title: "Home",
    isPublished: true,
    blocks: [
      ...BASE_BLOCKS,
      ...[1, 2, 3, 4, 5].map((i) => ({ kind: "app", type: `b${i}`, appId: app.id, settings: { color: "#654321" } })),
    ],
  });
  if (plain) await savePage(db, plain.business!.id, "home", { title: "Home", isPublished: true, blocks: BASE_BLOCKS });
  const shop = async (a: typeof rich): Promise<BenchShop> => {
    const rows = await db
      .select({ id: products.id, slug: products.slug })
      .from(products)
      .where(eq(products.businessId, a.business!.id))
      .orderBy(asc(products.createdAt), asc(products.id));
    return {
      businessId: a.business!.id,
      slug: a.business!.slug,
      merchantId: a.account.id,
      productSlugs: rows.map((r) => r.slug),
      productIds: rows.map((r) => r.id),
    };
  };
  return { rich: await shop(rich), plain: plain ? await shop(plain) : null };
}
