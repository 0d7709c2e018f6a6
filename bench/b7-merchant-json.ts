/**
 * B7 Merchant JSON (issue 44): what the account check costs a signed-in merchant's calls. Every
 * /merchant and /developer request checks its JWT's session (`sid`: the session row, ended or not,
 * read with the account in one statement). Measured as the merchant's client sees it:
 * GET /merchant/pages and GET /merchant/installations with the merchant's Bearer token, at 1 and 16
 * connections, beside a floor in the same run: GET /healthz of the same server (the framework's
 * request handling and nothing of ours), so the figure can be compared between two checkouts
 * (`npm run bench -- B7` in each) by its ratio.
 *
 * Sign-up and sign-in go through HTTP only, so the same file runs on a checkout from before the
 * session check (for the comparison recorded in docs/performance.md).
 */
import { randomBytes } from "node:crypto";
import { startBench, load, reportRows, runIfMain, round2 } from "./lib";

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 6)) {
  const b = await startBench();
  try {
    const registered = await fetch(`${b.web.url}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: `bench-merchant-${randomBytes(4).toString("hex")}@example.test`,
        password: "bench-password-1",
        name: "Bench Merchant",
        role: "MERCHANT",
        businessName: "Bench Bistro",
      }),
    });
    if (registered.status !== 201) throw new Error(`sign-up: ${registered.status} ${await registered.text()}`);
    const { token } = (await registered.json()) as { token: string };
    const headers = { Authorization: `Bearer ${token}` };
    const rows: Record<string, unknown>[] = [];
    for (const connections of [1, 16]) {
      const floor = await load(`${b.web.url}/healthz`, { connections, durationSec });
      for (const path of ["/merchant/pages", "/merchant/installations"]) {
        const r = await load(`${b.web.url}${path}`, { connections, durationSec, headers });
        if (r.non2xx || r.errors) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        rows.push({
          connections,
          path,
          "req/s": r.rps,
          "p50 ms": r.p50,
          "p99 ms": r.p99,
          "floor req/s (/healthz)": floor.rps,
          "ratio to floor": round2(r.rps / floor.rps),
        });
      }
    }
    reportRows("B7 Merchant JSON: signed-in calls with the session check", "b7-merchant-json", durationSec, rows);
    return rows;
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
