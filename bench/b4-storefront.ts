/**
 * B4 Storefront: a page with 5 app blocks and 3 embeds against the same page with none: server
 * time per request (autocannon) and the ratio.
 */
import { startBench, load, table, writeResult } from "./lib";
import { createAccount } from "../app/platform/accounts/accounts.server";
import { createApp, submitApp } from "../app/platform/apps/apps.server";
import { approveApp } from "../app/platform/apps/review.server";
import { createInstallation, issueAccessToken } from "../app/platform/installs/installs.server";
import { savePage } from "../app/platform/extensions/merchant.server";

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 8)) {
  const b = await startBench();
  try {
    const db = b.db.db;
    const stamp = Date.now();
    const dev = await createAccount(db, {
      email: `d${stamp}@bench.test`,
      password: "bench-password",
      name: "D",
      role: "DEVELOPER",
    });
    const rev = await createAccount(db, {
      email: `r${stamp}@bench.test`,
      password: "bench-password",
      name: "R",
      role: "REVIEWER",
    });
    const plain = await createAccount(db, {
      email: `p${stamp}@bench.test`,
      password: "bench-password",
      name: "P",
      role: "MERCHANT",
      businessName: `Plain ${stamp}`,
      withDemoData: true,
    });
    const rich = await createAccount(db, {
      email: `m${stamp}@bench.test`,
      password: "bench-password",
      name: "M",
      role: "MERCHANT",
      businessName: `Rich ${stamp}`,
      withDemoData: true,
    });
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
    const approved = await approveApp(db, rev.account.id, app.id);
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
    // the same home page in both shops; the rich one has the five app blocks too
    const base = [
      { kind: "builtin", type: "heading", settings: { text: "Welcome" } },
      { kind: "builtin", type: "text", settings: { text: "Fresh food, made to order." } },
      { kind: "builtin", type: "product-grid", settings: { limit: 8 } },
    ];
    await savePage(db, plain.business!.id, "home", { title: "Home", isPublished: true, blocks: base });
    await savePage(db, rich.business!.id, "home", {
      title: "Home",
      isPublished: true,
      blocks: [
        ...base,
        ...[1, 2, 3, 4, 5].map((i) => ({ kind: "app", type: `b${i}`, appId: app.id, settings: { color: "#654321" } })),
      ],
    });

    const rows: Record<string, unknown>[] = [];
    for (const connections of [1, 8]) {
      const none = await load(`${b.web.url}/s/${plain.business!.slug}`, { connections, durationSec });
      const withApps = await load(`${b.web.url}/s/${rich.business!.slug}`, { connections, durationSec });
      if (none.non2xx || withApps.non2xx) throw new Error("storefront answered non-2xx");
      rows.push({
        connections,
        "plain rps": none.rps,
        "5 blocks + 3 embeds rps": withApps.rps,
        "plain p50 ms": none.p50,
        "with apps p50 ms": withApps.p50,
        "time ratio (rps plain / rps apps)": Math.round((none.rps / withApps.rps) * 100) / 100,
      });
    }
    table("B4 Storefront: home page with and without app extensions", rows);
    writeResult("b4-storefront", { durationSec, rows });
    return rows;
  } finally {
    await b.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  run()
    .then(() => import("./lib").then((l) => l.stopCluster()))
    .then(() => process.exit(0));
