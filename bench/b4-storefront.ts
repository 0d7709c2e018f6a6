/**
 * B4 Storefront: a page with 5 app blocks and 3 embeds against the same page with none: server
 * time per request (autocannon) and the ratio.
 */
import { startBench, load, reportRows, runIfMain, round2 } from "./lib";
import { richShop } from "./b4c-shop";

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 8)) {
  const b = await startBench();
  try {
    // the same home page in both shops; the rich one has the five app blocks and three embeds too
    const shops = await richShop(b, { plain: true });
    const rich = shops.rich;
    const plain = shops.plain!;

    const rows: Record<string, unknown>[] = [];
    for (const connections of [1, 8]) {
      const none = await load(`${b.web.url}/s/${plain.slug}`, { connections, durationSec });
      const withApps = await load(`${b.web.url}/s/${rich.slug}`, { connections, durationSec });
      if (none.non2xx || withApps.non2xx) throw new Error("storefront answered non-2xx");
      rows.push({
        connections,
        "plain rps": none.rps,
        "5 blocks + 3 embeds rps": withApps.rps,
        "plain p50 ms": none.p50,
        "with apps p50 ms": withApps.p50,
        "time ratio (rps plain / rps apps)": round2(none.rps / withApps.rps),
      });
    }
    return reportRows("B4 Storefront: home page with and without app extensions", "b4-storefront", durationSec, rows);
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
