/**
 * The client's address behind a balancer (issue 34): X-Forwarded-For counts only when the socket's
 * peer is a trusted proxy (TRUSTED_PROXIES). Read through the sign-in budgets of the real server,
 * which count failures per account and address (sign_in_delays) and per address (sign_in_windows).
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform, type TestPlatform } from "../testing/platform";
import { loadEnv } from "./env.server";

/** Fails to sign in once per X-Forwarded-For value (API and page): the addresses the budgets counted. */
async function countedAddresses(p: TestPlatform, forwardedFor: string[]): Promise<string[]> {
  const dev = await p.register("DEVELOPER");
  for (const [i, value] of forwardedFor.entries()) {
    const res = await p.request("POST", "/auth/login", {
      body: { email: dev.email, password: `wrong-${i}-password` },
      headers: { "X-Forwarded-For": value },
    });
    expect(res.status).toBe(401);
  }
  const rows = await p.db.execute<{ key: string }>(
    sql`select key from sign_in_delays where key like ${`pair:${dev.email}|%`} order by key`,
  );
  await p.db.execute(sql`delete from sign_in_delays`);
  return rows.map((r) => r.key.slice(`pair:${dev.email}|`.length));
}

describe("behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1, 10.0.0.0/8)", async () => {
  const p = await startPlatform({ env: { TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" } });

  it("counts each forwarded client on its own: one shopper's failures do not make another wait", async () => {
    expect(await countedAddresses(p, ["203.0.113.7", "198.51.100.9"])).toEqual(["198.51.100.9", "203.0.113.7"]);
  });

  it("takes the nearest untrusted address: a client cannot prepend a fake one", async () => {
    // the client sent "X-Forwarded-For: <anything>", a proxy of ours (10.1.2.3) appended the client's
    // real address and the balancer (127.0.0.1, the socket's peer) appended 10.1.2.3
    expect(await countedAddresses(p, ["1.1.1.1, 203.0.113.7, 10.1.2.3", "2.2.2.2, 203.0.113.7, 10.1.2.3"])).toEqual([
      "203.0.113.7",
    ]);
  });

  it("takes the socket's peer when no header names another", async () => {
    const [address] = await countedAddresses(p, [""]);
    expect(address).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});

describe("without TRUSTED_PROXIES (the default)", async () => {
  const p = await startPlatform();

  it("ignores X-Forwarded-For: a client cannot escape its budget by naming other addresses", async () => {
    const addresses = await countedAddresses(p, ["203.0.113.7", "198.51.100.9", "10.0.0.1"]);
    expect(addresses).toHaveLength(1);
    expect(addresses[0]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});

describe("TRUSTED_PROXIES", () => {
  it("takes addresses, ranges and proxy-addr's names; refuses anything else, naming the setting", () => {
    const base = { NODE_ENV: "test", DATA_DIR: ".data/test-tmp" };
    expect(loadEnv(base).trustedProxies).toEqual([]);
    expect(loadEnv({ ...base, TRUSTED_PROXIES: "127.0.0.1,::1, 10.0.0.0/8,loopback" }).trustedProxies).toEqual([
      "127.0.0.1",
      "::1",
      "10.0.0.0/8",
      "loopback",
    ]);
    for (const bad of ["balancer.internal", "10.0.0.0/99", "127.0.0.1;rm"])
      expect(() => loadEnv({ ...base, TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES: must be IP addresses/);
  });
});
