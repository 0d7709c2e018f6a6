/**
 * Strong sign-in, sessions and the activity log (contract 18; issue 44), from outside through HTTP:
 * TOTP enrolled by the JSON calls, the second step of /auth/login, codes and recovery codes working
 * once, sessions ended at once, the owner's requirement, the activity log and its append-only
 * table, and the attacks: skipping the second step, replaying a code, another account's session,
 * another business's log.
 */
import { describe, expect, it } from "vitest";
import * as OTPAuth from "otpauth";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";

const p = await startPlatform();
const PASSWORD = "correct horse battery";

const codeAt = (secret: string, at: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: at,
  });

/** A merchant with TOTP enrolled through the JSON calls; its secret and recovery codes. */
async function enrolled() {
  const m = await p.register("MERCHANT");
  const start = await p.request("POST", "/auth/mfa/totp", { token: m.token });
  expect(start.status, start.text).toBe(201);
  expect(start.json.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  const secret = start.json.secret as string;
  const confirm = await p.request("POST", "/auth/mfa/totp/confirm", {
    token: m.token,
    body: { code: codeAt(secret, Date.now()) },
  });
  expect(confirm.status, confirm.text).toBe(200);
  expect(confirm.json.recoveryCodes).toHaveLength(10);
  return { ...m, secret, recoveryCodes: confirm.json.recoveryCodes as string[] };
}

const login = (email: string, otp?: string, headers: Record<string, string> = {}) =>
  p.request("POST", "/auth/login", { body: { email, password: PASSWORD, ...(otp ? { otp } : {}) }, headers });

describe("TOTP and the second step", () => {
  it("a wrong first code does not confirm; the password alone then answers mfaRequired; a code signs in once", async () => {
    const m = await p.register("MERCHANT");
    const start = await p.request("POST", "/auth/mfa/totp", { token: m.token });
    const bad = await p.request("POST", "/auth/mfa/totp/confirm", { token: m.token, body: { code: "000000" } });
    expect(bad.status).toBe(400);
    expect((await login(m.email)).status).toBe(200); // not confirmed: no second step yet
    const secret = start.json.secret as string;
    expect(
      (
        await p.request("POST", "/auth/mfa/totp/confirm", {
          token: m.token,
          body: { code: codeAt(secret, Date.now()) },
        })
      ).status,
    ).toBe(200);

    const alone = await login(m.email);
    expect(alone.status).toBe(401);
    expect(alone.json).toMatchObject({ statusCode: 401, error: "Unauthorized", mfaRequired: true });
    expect(alone.json.token).toBeUndefined();

    // the confirming code's step is spent: the next step's code (one step of drift) works, once
    const next = codeAt(secret, Date.now() + 30_000);
    const ok = await login(m.email, next);
    expect(ok.status, ok.text).toBe(200);
    expect(typeof ok.json.token).toBe("string");
    const replay = await login(m.email, next);
    expect(replay.status).toBe(401);
    expect(replay.json.mfaRequired).toBe(true);
    // two steps away is outside the drift
    expect((await login(m.email, codeAt(secret, Date.now() + 90_000))).status).toBe(401);
  });

  it("a recovery code signs in once, and a wrong password with a right code is still refused", async () => {
    const m = await enrolled();
    expect(
      (
        await p.request("POST", "/auth/login", {
          body: { email: m.email, password: "wrong one!", otp: m.recoveryCodes[0] },
        })
      ).status,
    ).toBe(401);
    const ok = await login(m.email, m.recoveryCodes[0]);
    expect(ok.status, ok.text).toBe(200);
    expect((await login(m.email, m.recoveryCodes[0])).status).toBe(401);
    expect((await login(m.email, m.recoveryCodes[1].toUpperCase())).status).toBe(200);
  });

  it("wrong codes are throttled like passwords (429 with Retry-After)", async () => {
    const m = await enrolled();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(m.email, "123456")).status);
    // the first wrong codes are free, then the pair's delays begin, as after wrong passwords
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    const last = await login(m.email, "123456");
    expect(last.status).toBe(429);
    expect(last.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("removing the authenticator takes a code; afterwards the password alone signs in", async () => {
    const m = await enrolled();
    expect((await p.request("DELETE", "/auth/mfa/totp", { token: m.token, body: { code: "000000" } })).status).toBe(
      400,
    );
    const gone = await p.request("DELETE", "/auth/mfa/totp", { token: m.token, body: { code: m.recoveryCodes[3] } });
    expect(gone.status, gone.text).toBe(204);
    expect((await login(m.email)).status).toBe(200);
  });

  it("the secret is stored sealed, never as given", async () => {
    const m = await enrolled();
    const rows = await p.sql`select secret_enc from totp_factors where account_id = ${m.account.id}`;
    expect(rows[0].secret_enc).not.toContain(m.secret);
    const codes = await p.sql`select code_hash from recovery_codes where account_id = ${m.account.id}`;
    expect(codes.map((c) => c.code_hash)).not.toContain(m.recoveryCodes[0]);
  });
});

describe("the page's second step cannot be skipped or replayed", () => {
  it("after the password, a page finds no session; the code signs in; the pending cookie then works no more", async () => {
    const m = await enrolled();
    const b = new BrowserSession(p.url);
    await b.get("/login");
    const res = await b.post("/login", { email: m.email, password: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/login\?step=code/);
    const pending = b.clone();
    // skipping: straight to the admin with only the pending step
    const skip = await b.get("/admin");
    expect(skip.status).toBe(302);
    expect(skip.location).toMatch(/^\/login/);
    expect((await b.get("/login?step=code")).html).toContain("Two-step sign-in");
    const wrong = await b.post("/login?step=code", { intent: "code", code: "000000" });
    expect(wrong.status).toBe(401);
    const done = await b.post("/login?step=code", { intent: "code", code: codeAt(m.secret, Date.now() + 30_000) });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin");
    expect((await b.get("/admin")).status).toBe(200);
    // replay: the pending step's cookie again, with a recovery code, finds the step used
    const replay = pending;
    const again = await replay.post("/login?step=code", { intent: "code", code: m.recoveryCodes[0] });
    // refused: the used step is gone, so the page sends the replayer back to the password
    expect(again.status).toBe(302);
    expect(again.location).toBe("/login");
    expect((await replay.get("/admin")).status).toBe(302);
  });
});

describe("sessions", () => {
  it("lists them; ending the others makes their JWTs 401 at once while the current one works", async () => {
    const m = await p.register("MERCHANT");
    const a = await login(m.email, undefined, { "User-Agent": "Firefox/130.0 (X11; Linux)" });
    const b = await login(m.email);
    const list = await p.request("GET", "/auth/sessions", { token: a.json.token });
    expect(list.status).toBe(200);
    expect(list.json.data.length).toBeGreaterThanOrEqual(3);
    const current = list.json.data.filter((s: { current: boolean }) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ userAgent: "Firefox/130.0 (X11; Linux)", ip: expect.any(String) });
    expect(Object.keys(current[0]).sort()).toEqual(["createdAt", "current", "id", "ip", "lastSeenAt", "userAgent"]);

    const ended = await p.request("DELETE", "/auth/sessions", { token: a.json.token });
    expect(ended.status).toBe(200);
    expect(ended.json.ended).toBeGreaterThanOrEqual(2);
    expect((await p.request("GET", "/merchant/staff", { token: b.json.token })).status).toBe(401);
    expect((await p.request("GET", "/merchant/staff", { token: m.token })).status).toBe(401);
    expect((await p.request("GET", "/merchant/staff", { token: a.json.token })).status).toBe(200);
  });

  it("one session ended by id; another account's session id is 404 and stays alive", async () => {
    const m = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const theirs = (await p.request("GET", "/auth/sessions", { token: other.token })).json.data[0].id as string;
    expect((await p.request("DELETE", `/auth/sessions/${theirs}`, { token: m.token })).status).toBe(404);
    expect((await p.request("GET", "/merchant/staff", { token: other.token })).status).toBe(200);
    const second = await login(m.email);
    const mine = (await p.request("GET", "/auth/sessions", { token: second.json.token })).json.data.find(
      (s: { current: boolean }) => s.current,
    ).id;
    expect((await p.request("DELETE", `/auth/sessions/${mine}`, { token: m.token })).status).toBe(204);
    expect((await p.request("GET", "/merchant/staff", { token: second.json.token })).status).toBe(401);
    expect((await p.request("DELETE", `/auth/sessions/${mine}`, { token: m.token })).status).toBe(404);
  });

  it("a token without a session id is refused", async () => {
    const { signJwt } = await import("../core/crypto.server");
    const m = await p.register("MERCHANT");
    const forged = await signJwt(
      { sub: m.account.id, aud: "platform-account-api", role: "MERCHANT", businessId: m.businessId, cv: 0 },
      p.env.sessionSecret,
      3600,
      Math.floor(Date.now() / 1000),
    );
    expect((await p.request("GET", "/merchant/staff", { token: forged })).status).toBe(401);
  });
});

describe("the owner's requirement", () => {
  it("a member without a factor gets 403 naming it, until they enrol", async () => {
    const owner = await p.register("MERCHANT");
    // the owner must have one first
    const early = await p.request("PUT", "/merchant/security", {
      token: owner.token,
      body: { requireSecondFactor: true },
    });
    expect(early.status).toBe(409);
    const start = await p.request("POST", "/auth/mfa/totp", { token: owner.token });
    await p.request("POST", "/auth/mfa/totp/confirm", {
      token: owner.token,
      body: { code: codeAt(start.json.secret, Date.now()) },
    });
    const on = await p.request("PUT", "/merchant/security", {
      token: owner.token,
      body: { requireSecondFactor: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toEqual({ requireSecondFactor: true });

    // a new member (made directly as the invitation flow would, to keep this test about the rule)
    const email = `staff-${Math.random().toString(36).slice(2)}@example.test`;
    const invited = await p.request("POST", "/merchant/staff", {
      token: owner.token,
      body: { email, permissions: ["staff"] },
    });
    expect(invited.status).toBe(201);
    const [{ token: inviteToken }] = await p.sql<
      { token: string }[]
    >`select id as token from invitations where email = ${email}`;
    void inviteToken;
    const member = await p.createUser("MERCHANT");
    await p.sql`update accounts set business_id = ${owner.businessId}, staff_permissions = ${["staff"]} where id = ${member.account.id}`;
    const refused = await p.request("GET", "/merchant/staff", { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/second factor/i);
    const b = await BrowserSession.signIn(p.url, member.email, PASSWORD);
    const page = await b.get("/admin/staff");
    expect(page.status).toBe(302);
    expect(page.location).toBe("/account/security?required=1");
    expect((await b.get("/account/security?required=1")).status).toBe(200);
    // enrolling is allowed, and afterwards the member is let in
    const s = await p.request("POST", "/auth/mfa/totp", { token: member.token });
    expect(s.status).toBe(201);
    await p.request("POST", "/auth/mfa/totp/confirm", {
      token: member.token,
      body: { code: codeAt(s.json.secret, Date.now()) },
    });
    expect((await p.request("GET", "/merchant/staff", { token: member.token })).status).toBe(200);
    // only the owner sets the rule
    expect(
      (await p.request("PUT", "/merchant/security", { token: member.token, body: { requireSecondFactor: false } }))
        .status,
    ).toBe(403);
  });

  it("a reviewer without a second factor is sent to enrol", async () => {
    const r = await p.createUser("REVIEWER");
    expect((await p.request("GET", "/review/apps", { token: r.token })).status).toBe(200);
    await p.sql`delete from totp_factors where account_id = ${r.account.id}`;
    await p.sql`update accounts set has_second_factor = false where id = ${r.account.id}`;
    const res = await p.request("GET", "/review/apps", { token: r.token });
    expect(res.status).toBe(403);
    expect(res.json.message).toMatch(/second factor/i);
  });
  it("the Settings page's switch: refused with a message until the owner has a factor, then saved; members see the rule only", async () => {
    const owner = await p.register("MERCHANT");
    const b = await BrowserSession.signIn(p.url, owner.email, PASSWORD);
    const page = await b.get("/admin/settings");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Require a second factor of every member");
    expect(page.html).toContain("You need one yourself first");
    const early = await b.post("/admin/settings", { intent: "security", requireSecondFactor: "on" });
    expect(early.status).toBe(409);
    expect(early.html).toContain("Set up your own second factor first");
    expect((await p.request("GET", "/merchant/security", { token: owner.token })).json).toEqual({
      requireSecondFactor: false,
    });

    const start = await p.request("POST", "/auth/mfa/totp", { token: owner.token });
    await p.request("POST", "/auth/mfa/totp/confirm", {
      token: owner.token,
      body: { code: codeAt(start.json.secret, Date.now()) },
    });
    const on = await b.post("/admin/settings", { intent: "security", requireSecondFactor: "on" });
    expect(on.status).toBe(302);
    expect(on.location).toBe("/admin/settings?saved=security");
    expect((await p.request("GET", "/merchant/security", { token: owner.token })).json).toEqual({
      requireSecondFactor: true,
    });
    const after = await b.get("/admin/settings?saved=security");
    expect(after.html).toContain("Sign-in rule saved.");
    expect(after.html).toMatch(/<input type="checkbox" name="requireSecondFactor"[^>]* checked=""/);
    // the change is in the log, the owner as its actor
    const log = await p.request("GET", "/merchant/activity?action=security.changed", { token: owner.token });
    expect(log.json.data[0]).toMatchObject({
      actor: { type: "ACCOUNT", id: owner.account.id },
      details: { requireSecondFactor: true },
    });

    // a member with `settings` (and a factor, as the rule now wants) sees the rule, not the switch, and cannot post it
    const m = await p.createUser("MERCHANT");
    await p.sql`update accounts set business_id = ${owner.businessId}, staff_permissions = ${["settings"]} where id = ${m.account.id}`;
    const ms = await p.request("POST", "/auth/mfa/totp", { token: m.token });
    await p.request("POST", "/auth/mfa/totp/confirm", {
      token: m.token,
      body: { code: codeAt(ms.json.secret, Date.now()) },
    });
    const mb = await BrowserSession.signIn(p.url, m.email, PASSWORD, ms.json.secret);
    const theirs = await mb.get("/admin/settings");
    expect(theirs.status).toBe(200);
    expect(theirs.html).not.toContain('name="requireSecondFactor"');
    expect(theirs.html).toContain("Every member must sign in with a second factor");
    const refused = await mb.post("/admin/settings", { intent: "security" });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("Only the business&#x27;s owner");
    expect((await p.request("GET", "/merchant/security", { token: owner.token })).json.requireSecondFactor).toBe(true);
  });
});

describe("the activity log", () => {
  it("lists the sign-ins, the failed sign-in, the enrolment, the ended sessions and the invitation", async () => {
    const m = await p.register("MERCHANT");
    expect((await p.request("POST", "/auth/login", { body: { email: m.email, password: "not the one" } })).status).toBe(
      401,
    );
    const s = await p.request("POST", "/auth/mfa/totp", { token: m.token });
    await p.request("POST", "/auth/mfa/totp/confirm", {
      token: m.token,
      body: { code: codeAt(s.json.secret, Date.now()) },
    });
    const second = await login(m.email, codeAt(s.json.secret, Date.now() + 30_000));
    expect(second.status).toBe(200);
    await p.request("DELETE", "/auth/sessions", { token: second.json.token });
    await p.request("POST", "/merchant/staff", {
      token: second.json.token,
      body: { email: `inv-${Math.random().toString(36).slice(2)}@example.test`, permissions: ["orders"] },
    });
    const log = await p.request("GET", "/merchant/activity?limit=100", { token: second.json.token });
    expect(log.status, log.text).toBe(200);
    const actions = log.json.data.map((e: { action: string }) => e.action);
    for (const a of [
      "account.signed_in",
      "account.sign_in_failed",
      "account.totp_enrolled",
      "session.ended",
      "staff.invited",
    ])
      expect(actions).toContain(a);
    expect(actions.filter((a: string) => a === "account.signed_in").length).toBeGreaterThanOrEqual(2);
    const entry = log.json.data.find((e: { action: string }) => e.action === "staff.invited");
    expect(entry).toMatchObject({
      id: expect.any(String),
      at: expect.any(String),
      actor: { type: "ACCOUNT", id: m.account.id, email: m.email },
      target: { type: "invitation", id: expect.any(String) },
      ip: expect.any(String),
      details: { permissions: ["orders"] },
    });
    // filters and pages
    const failed = await p.request("GET", "/merchant/activity?action=account.sign_in_failed", {
      token: second.json.token,
    });
    expect(failed.json.data.every((e: { action: string }) => e.action === "account.sign_in_failed")).toBe(true);
    expect(failed.json.total).toBe(1);
    const page = await p.request("GET", "/merchant/activity?limit=2&page=2", { token: second.json.token });
    expect(page.json).toMatchObject({ page: 2, limit: 2, total: log.json.total });
    const future = await p.request(
      "GET",
      `/merchant/activity?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`,
      { token: second.json.token },
    );
    expect(future.json.data).toEqual([]);
    expect((await p.request("GET", "/merchant/activity?from=yesterday", { token: second.json.token })).status).toBe(
      400,
    );
    expect((await p.request("GET", "/merchant/activity?action=nope", { token: second.json.token })).status).toBe(400);
    // another business's log shows none of it
    const other = await p.register("MERCHANT");
    const theirs = await p.request("GET", "/merchant/activity?limit=100", { token: other.token });
    expect(theirs.json.data.some((e: { actor: { id: string } }) => e.actor.id === m.account.id)).toBe(false);
  });

  it("the database refuses UPDATE, DELETE and TRUNCATE of an entry", async () => {
    const m = await p.register("MERCHANT");
    await login(m.email);
    const [row] = await p.sql<{ id: string }[]>`select id from activity_log where account_id = ${m.account.id} limit 1`;
    await expect(p.sql`update activity_log set action = 'x' where id = ${row.id}`).rejects.toThrow(
      /never changed or removed/,
    );
    await expect(p.sql`delete from activity_log where id = ${row.id}`).rejects.toThrow(/never changed or removed/);
    await expect(p.sql`truncate activity_log`).rejects.toThrow(/never changed or removed/);
    // the scrub setting lets only `details` change, and the retention setting only old entries go
    await expect(
      p.sql.begin(async (tx) => {
        await tx`select set_config('activity.scrub', 'on', true)`;
        await tx`update activity_log set action = 'x' where id = ${row.id}`;
      }),
    ).rejects.toThrow(/never changed or removed/);
    await expect(
      p.sql.begin(async (tx) => {
        await tx`select set_config('activity.retention', 'on', true)`;
        await tx`delete from activity_log where id = ${row.id}`;
      }),
    ).rejects.toThrow(/never changed or removed/);
  });

  it("the retention job removes entries older than a year, and only those", async () => {
    const { pruneActivity } = await import("../activity/activity.server");
    await p.db.execute(sql`insert into activity_log (id, created_at, actor_type, action, target_type, target_id)
      values ('act_old_one', now() - interval '400 days', 'SYSTEM', 'settings.changed', 'business', 'x'),
             ('act_young_one', now() - interval '300 days', 'SYSTEM', 'settings.changed', 'business', 'x')`);
    expect(await pruneActivity(p.db)).toBeGreaterThanOrEqual(1);
    const left = await p.sql`select id from activity_log where id in ('act_old_one', 'act_young_one')`;
    expect(left.map((r) => r.id)).toEqual(["act_young_one"]);
  });
});
