/**
 * The account's messages end to end, against an SMTP server that is not the platform's own (contract
 * 16): the sign-up's link verifies the address; a reset link works once, and afterwards the old
 * password and every older JWT fail while the new password signs in.
 */
import { afterAll, describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { linkIn, startSmtp } from "../testing/smtp";
import { closeTransports } from "./transport.server";
import { unsubscribeToken } from "./unsubscribe.server";
import { eq } from "drizzle-orm";
import { accounts } from "../../../db/schema";

const smtp = await startSmtp();
const p = await startPlatform({ worker: true, env: { MAIL_URL: smtp.url } });
afterAll(async () => {
  closeTransports();
  await smtp.stop();
});

const messageTo = async (address: string, subject: string) => {
  const end = Date.now() + 20_000;
  for (;;) {
    const m = smtp.received.find((r) => r.envelopeTo.includes(address) && r.parsed.subject === subject);
    if (m) return m;
    if (Date.now() > end) throw new Error(`no "${subject}" to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("address verification", () => {
  it("a sign-up is unverified until its e-mailed link is followed", async () => {
    const dev = await p.register("DEVELOPER");
    expect(dev.account.emailVerified).toBe(false);
    const m = await messageTo(dev.email, "Confirm your e-mail address");
    expect(m.parsed.text).toContain("Confirm my address");
    expect(m.parsed.html).toContain("Confirm my address");
    // an always-sent message: no unsubscribe
    expect(m.parsed.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(false);
    const link = linkIn(m.parsed.text!, `${p.env.publicUrl}/verify-email?token=`);
    const token = new URL(link).searchParams.get("token");
    const ok = await p.request("POST", "/auth/verify-email", { body: { token } });
    expect(ok.status).toBe(200);
    expect(ok.json.account).toMatchObject({ email: dev.email, emailVerified: true });
    const again = await p.request("POST", "/auth/verify-email", { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ statusCode: 400, error: "Bad Request" });
    const login = await p.request("POST", "/auth/login", { body: { email: dev.email, password: dev.password } });
    expect(login.json.account.emailVerified).toBe(true);
    // verified: nothing more to send
    expect((await p.request("POST", "/auth/verify-email/resend", { token: dev.token })).status).toBe(409);
  });

  it("the link's page verifies too, and a signed-in account can ask for a new link", async () => {
    const m = await p.register("MERCHANT");
    expect((await p.request("POST", "/auth/verify-email/resend", {})).status).toBe(401);
    const resent = await p.request("POST", "/auth/verify-email/resend", { token: m.token });
    expect(resent.status).toBe(202);
    await messageTo(m.email, "Confirm your e-mail address");
    const end = Date.now() + 20_000;
    while (smtp.received.filter((r) => r.envelopeTo.includes(m.email)).length < 2 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    const links = smtp.received
      .filter((r) => r.envelopeTo.includes(m.email))
      .map((r) => linkIn(r.parsed.text!, `${p.env.publicUrl}/verify-email?token=`));
    expect(new Set(links).size).toBe(2);
    const page = await fetch(links[1]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("is confirmed");
    const login = await p.request("POST", "/auth/login", { body: { email: m.email, password: m.password } });
    expect(login.json.account.emailVerified).toBe(true);
  });
});

describe("password reset", () => {
  it("answers 202 alike for any address", async () => {
    const unknown = await p.request("POST", "/auth/password-reset", { body: { email: "nobody-here@example.test" } });
    const dev = await p.register("DEVELOPER");
    const known = await p.request("POST", "/auth/password-reset", { body: { email: dev.email } });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.json).toEqual(unknown.json);
    expect((await p.request("POST", "/auth/password-reset", { body: {} })).status).toBe(400);
  });

  it("the link works once; then the old password and every older JWT fail and the new password signs in", async () => {
    const dev = await p.register("DEVELOPER");
    const oldToken = dev.token;
    expect((await p.request("GET", "/developer/apps", { token: oldToken })).status).toBe(200);
    expect((await p.request("POST", "/auth/password-reset", { body: { email: dev.email.toUpperCase() } })).status).toBe(202);
    const m = await messageTo(dev.email, "Reset your password");
    const link = linkIn(m.parsed.text!, `${p.env.publicUrl}/reset-password?token=`);
    const token = new URL(link).searchParams.get("token");
    // the page shows the form for a live token
    expect(await (await fetch(link)).text()).toContain("Choose a new password");
    const weak = await p.request("POST", "/auth/password-reset/confirm", { body: { token, password: "short" } });
    expect(weak.status).toBe(400);
    const done = await p.request("POST", "/auth/password-reset/confirm", {
      body: { token, password: "a brand new passphrase" },
    });
    expect(done.status).toBe(200);
    expect(done.json.account).toMatchObject({ email: dev.email, emailVerified: true });
    const twice = await p.request("POST", "/auth/password-reset/confirm", {
      body: { token, password: "another new passphrase" },
    });
    expect(twice.status).toBe(400);
    expect((await p.request("GET", "/developer/apps", { token: oldToken })).status).toBe(401);
    expect((await p.request("POST", "/auth/login", { body: { email: dev.email, password: dev.password } })).status).toBe(401);
    const login = await p.request("POST", "/auth/login", { body: { email: dev.email, password: "a brand new passphrase" } });
    expect(login.status).toBe(200);
    expect((await p.request("GET", "/developer/apps", { token: login.json.token })).status).toBe(200);
  });

  it("is limited per address asked about (429 with Retry-After)", async () => {
    const email = "limited@example.test";
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await p.request("POST", "/auth/password-reset", { body: { email } }));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(answers[6].status).toBe(429);
    expect(Number(answers[6].headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("one-click unsubscribe (RFC 8058)", () => {
  it("a POST with the signed token turns the kind off without signing in; a forged token changes nothing", async () => {
    const dev = await p.register("DEVELOPER");
    const token = unsubscribeToken(p.env, dev.account.id, "app.review_outcome");
    const page = await p.request("GET", `/unsubscribe?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("App review outcomes");
    const forged = await p.request("POST", `/unsubscribe?token=${token.slice(0, -2)}xx`, {
      raw: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(forged.status).toBe(400);
    let [row] = await p.db.select().from(accounts).where(eq(accounts.id, dev.account.id));
    expect(row.mailOff).toEqual([]);
    const done = await p.request("POST", `/unsubscribe?token=${token}`, {
      raw: "List-Unsubscribe=One-Click",
      // as a mail provider's server sends it: no cookie, no CSRF token, no Origin
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(done.status).toBe(200);
    [row] = await p.db.select().from(accounts).where(eq(accounts.id, dev.account.id));
    expect(row.mailOff).toEqual(["app.review_outcome"]);
  });
});
