/**
 * Teams (contract 17; issue 43), from outside: a business's staff invited by e-mail (the message
 * really sent over SMTP by the worker), permissions enforced on /merchant at once, removal ending
 * the member's tokens, the owner fixed; invitations under concurrency and bad input; apps' members
 * by role (VIEWER never sees a secret, a non-member gets 404); session tokens carrying the person.
 */
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { linkIn, startSmtp } from "../testing/smtp";
import { closeTransports } from "../mail/transport.server";
import { accounts, invitations } from "../../../db/schema";
import { appBody } from "../apps/apps.test-helpers";
import { adminSessionToken } from "../extensions/merchant.server";
import { verifyJwt } from "../core/crypto.server";

const smtp = await startSmtp();
const p = await startPlatform({ worker: true, env: { MAIL_URL: smtp.url } });
afterAll(async () => {
  closeTransports();
  await smtp.stop();
});
const PASSWORD = "correct horse battery";
const random = () => Math.random().toString(36).slice(2, 10);

/** The accept link of the invitation e-mail to the address (waits for the worker to send it). */
async function invitationLink(address: string): Promise<string> {
  const end = Date.now() + 20_000;
  for (;;) {
    const m = smtp.received.find(
      (r) => r.envelopeTo.includes(address) && /invited you to/.test(r.parsed.subject ?? ""),
    );
    if (m) return linkIn(m.parsed.text!, `${p.env.publicUrl}/invitations/`);
    if (Date.now() > end) throw new Error(`no invitation to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const tokenOfLink = (link: string) => decodeURIComponent(link.split("/invitations/")[1]);

async function invite(owner: { token: string }, permissions: string[], email = `staff-${random()}@example.test`) {
  const res = await p.request("POST", "/merchant/staff", { token: owner.token, body: { email, permissions } });
  expect(res.status, res.text).toBe(201);
  return { ...res.json, email } as { id: string; email: string; permissions: string[]; status: string };
}

async function join(email: string) {
  const token = tokenOfLink(await invitationLink(email));
  const res = await p.request("POST", "/auth/invitations/accept", {
    body: { token, name: "Pat Staff", password: PASSWORD },
  });
  expect(res.status, res.text).toBe(201);
  return {
    token: res.json.token as string,
    account: res.json.account,
    businessId: res.json.businessId as string,
    link: token,
  };
}

describe("a business's staff", () => {
  it("the owner invites a member with `pages`; the e-mail's link accepts; permissions apply at once; removal ends the token; the owner stays", async () => {
    const owner = await p.register("MERCHANT");
    const invited = await invite(owner, ["pages"]);
    expect(invited).toMatchObject({ status: "INVITED", permissions: ["pages"] });
    expect(invited.id).toMatch(/^inv_/);

    const member = await join(invited.email);
    expect(member.account.role).toBe("MERCHANT");
    expect(member.businessId).toBe(owner.businessId);

    expect((await p.request("GET", "/merchant/pages", { token: member.token })).status).toBe(200);
    const apps = await p.request("GET", "/merchant/installations", { token: member.token });
    expect(apps.status).toBe(403);
    expect(apps.json).toMatchObject({ statusCode: 403, error: "Forbidden" });
    expect(apps.json.message).toContain('"apps" permission');
    const privacy = await p.request("POST", "/merchant/privacy/requests", { token: member.token, body: {} });
    expect(privacy.status).toBe(403);
    expect(privacy.json.message).toContain('"privacy" permission');
    expect((await p.request("GET", "/merchant/staff", { token: member.token })).json.message).toContain('"staff"');

    // the Staff list: the owner first (every permission), then the member, ACTIVE
    const list = await p.request("GET", "/merchant/staff", { token: owner.token });
    expect(list.json.total).toBe(2);
    expect(list.json.data[0]).toMatchObject({ email: owner.email, owner: true, status: "ACTIVE" });
    expect(list.json.data[0].permissions).toHaveLength(8);
    expect(list.json.data[1]).toMatchObject({
      id: member.account.id,
      email: invited.email,
      name: "Pat Staff",
      owner: false,
      permissions: ["pages"],
      status: "ACTIVE",
    });
    expect(list.json.data[1].lastSignInAt).not.toBeNull();

    // granting `apps` counts for the same token at once
    const granted = await p.request("PATCH", `/merchant/staff/${member.account.id}`, {
      token: owner.token,
      body: { permissions: ["pages", "apps"] },
    });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.json.permissions).toEqual(["pages", "apps"]);
    expect((await p.request("GET", "/merchant/installations", { token: member.token })).status).toBe(200);

    // the owner can be neither changed nor removed, not even by themselves
    const ownerId = list.json.data[0].id;
    const patchOwner = await p.request("PATCH", `/merchant/staff/${ownerId}`, {
      token: owner.token,
      body: { permissions: [] },
    });
    expect(patchOwner.status).toBe(403);
    const removeOwner = await p.request("DELETE", `/merchant/staff/${ownerId}`, { token: owner.token });
    expect(removeOwner.status).toBe(403);
    expect(removeOwner.json.message).toMatch(/owner/i);

    // removal: the member's JWT answers 401 at once, and so does signing in
    expect((await p.request("DELETE", `/merchant/staff/${member.account.id}`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await p.request("GET", "/merchant/pages", { token: member.token })).status).toBe(401);
    const login = await p.request("POST", "/auth/login", { body: { email: invited.email, password: PASSWORD } });
    expect(login.status).toBe(401);
    expect((await p.request("GET", "/merchant/staff", { token: owner.token })).json.total).toBe(1);
    // another business's member id is 404
    const other = await p.register("MERCHANT");
    expect((await p.request("DELETE", `/merchant/staff/${ownerId}`, { token: other.token })).status).toBe(404);
  });

  it("an invitation works once, even under concurrent accepts; it can be withdrawn; an expired one is 410", async () => {
    const owner = await p.register("MERCHANT");
    const invited = await invite(owner, ["orders"]);
    const token = tokenOfLink(await invitationLink(invited.email));
    const tries = await Promise.all(
      [1, 2, 3].map(() =>
        p.request("POST", "/auth/invitations/accept", { body: { token, name: "Racer", password: PASSWORD } }),
      ),
    );
    expect(tries.map((t) => t.status).sort()).toEqual([201, 409, 409]);
    expect((await p.db.select().from(accounts).where(eq(accounts.email, invited.email))).length).toBe(1);
    const again = await p.request("POST", "/auth/invitations/accept", {
      body: { token, name: "Late", password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/accepted already/);

    // withdrawn: the link is 404
    const second = await invite(owner, []);
    const secondToken = tokenOfLink(await invitationLink(second.email));
    expect((await p.request("DELETE", `/merchant/staff/${second.id}`, { token: owner.token })).status).toBe(204);
    const withdrawn = await p.request("POST", "/auth/invitations/accept", {
      body: { token: secondToken, name: "X", password: PASSWORD },
    });
    expect(withdrawn.status).toBe(404);

    // expired (7 days): 410, and the address can be invited afresh
    const third = await invite(owner, ["products"]);
    const thirdToken = tokenOfLink(await invitationLink(third.email));
    await p.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, third.id));
    const expired = await p.request("POST", "/auth/invitations/accept", {
      body: { token: thirdToken, name: "X", password: PASSWORD },
    });
    expect(expired.status).toBe(410);
    await invite(owner, ["products"], third.email);

    // bad input: a clear 400, never a 500
    expect((await p.request("POST", "/auth/invitations/accept", { body: { token: 5 } })).status).toBe(400);
    expect(
      (
        await p.request("POST", "/auth/invitations/accept", {
          body: { token: "x".repeat(40), name: "A", password: "short" },
        })
      ).status,
    ).toBe(400);
    expect(
      (await p.request("POST", "/merchant/staff", { token: owner.token, body: { email: "no", permissions: [] } }))
        .status,
    ).toBe(400);
    const badPermission = await p.request("POST", "/merchant/staff", {
      token: owner.token,
      body: { email: `x-${random()}@example.test`, permissions: ["root"] },
    });
    expect(badPermission.status).toBe(400);
    expect(badPermission.json.message).toContain("permissions");
  });

  it("the same address invited twice at once gives one invitation; an address with an account is refused, saying so", async () => {
    const owner = await p.register("MERCHANT");
    const email = `twice-${random()}@example.test`;
    const both = await Promise.all(
      [1, 2].map(() =>
        p.request("POST", "/merchant/staff", { token: owner.token, body: { email, permissions: ["orders"] } }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await p.db.select().from(invitations).where(eq(invitations.email, email))).length).toBe(1);

    const dev = await p.register("DEVELOPER");
    const refused = await p.request("POST", "/merchant/staff", {
      token: owner.token,
      body: { email: dev.email, permissions: [] },
    });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain("already has a developer account");
    const otherShop = await p.register("MERCHANT");
    const refused2 = await p.request("POST", "/merchant/staff", {
      token: owner.token,
      body: { email: otherShop.email, permissions: [] },
    });
    expect(refused2.json.message).toContain("merchant account of another business");
  });

  it("a member with `staff` manages staff but cannot hand over ownership; the owner can, and stays a member", async () => {
    const owner = await p.register("MERCHANT");
    const manager = await join((await invite(owner, ["staff"])).email);
    const byManager = await invite(manager, ["orders"]);
    expect(byManager.status).toBe("INVITED");
    const refused = await p.request("POST", `/merchant/staff/${manager.account.id}/ownership`, {
      token: manager.token,
    });
    expect(refused.status).toBe(403);
    const handed = await p.request("POST", `/merchant/staff/${manager.account.id}/ownership`, { token: owner.token });
    expect(handed.status, handed.text).toBe(200);
    expect(handed.json.owner).toBe(true);
    const list = (await p.request("GET", "/merchant/staff", { token: manager.token })).json.data;
    expect(list[0]).toMatchObject({ id: manager.account.id, owner: true });
    expect(list.find((s: { email: string }) => s.email === owner.email)).toMatchObject({ owner: false });
    // the former owner can now be removed by the new one
    const formerId = list.find((s: { email: string }) => s.email === owner.email).id;
    expect((await p.request("DELETE", `/merchant/staff/${formerId}`, { token: manager.token })).status).toBe(204);
    expect((await p.request("GET", "/merchant/pages", { token: owner.token })).status).toBe(401);
  });

  it("removing a member while they act leaves nothing half done: each of their calls succeeds whole or answers 401", async () => {
    const owner = await p.register("MERCHANT");
    const member = await join((await invite(owner, ["pages"])).email);
    const saves = Array.from({ length: 6 }, (_, i) =>
      p.request("PUT", "/merchant/pages/home", {
        token: member.token,
        body: { title: `Home ${i}`, isPublished: true, blocks: [] },
      }),
    );
    const removal = p.request("DELETE", `/merchant/staff/${member.account.id}`, { token: owner.token });
    const results = await Promise.all([...saves, removal]);
    expect(results.at(-1)!.status).toBe(204);
    for (const r of results.slice(0, -1)) expect([200, 401], r.text).toContain(r.status);
    const page = await p.request("GET", "/merchant/pages/home", { token: owner.token });
    const saved = results
      .slice(0, -1)
      .filter((r) => r.status === 200)
      .map((r) => r.json.title);
    if (saved.length) expect(saved).toContain(page.json.title);
    else expect(page.json.title).toBe("Home");
  });
});

describe("session tokens know the person (contract 10 and 17)", () => {
  it("carry sub, owner, permissions and name, signed with the app's client secret", async () => {
    const env = { ...p.env };
    const { encrypt } = await import("../core/crypto.server");
    const secret = "fbcs_" + random().repeat(4);
    const token = await adminSessionToken(
      env,
      { clientId: "fbci_test", clientSecretEnc: encrypt(secret, env.encryptionKey) },
      { accountId: "acct_x", name: "Pat", owner: false, permissions: ["pages"] },
      "biz_1",
    );
    const claims = await verifyJwt(token!, secret, Math.floor(Date.now() / 1000), "fbci_test");
    expect(claims).toMatchObject({
      sub: "acct_x",
      businessId: "biz_1",
      owner: false,
      permissions: ["pages"],
      name: "Pat",
    });
  });
});

describe("an app's members", () => {
  it("VIEWER reads the app without any secret and gets 403 on a change; DEVELOPER edits; ADMIN rotates; a non-member gets 404", async () => {
    const owner = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", { token: owner.token, body: appBody({}) });
    expect(created.status, created.text).toBe(201);
    const appId = created.json.id as string;

    // a new address registers as a developer on accepting
    const viewerEmail = `viewer-${random()}@example.test`;
    const inv = await p.request("POST", `/developer/apps/${appId}/members`, {
      token: owner.token,
      body: { email: viewerEmail, role: "VIEWER" },
    });
    expect(inv.status, inv.text).toBe(201);
    const viewer = await join(viewerEmail);
    expect(viewer.account.role).toBe("DEVELOPER");

    const read = await p.request("GET", `/developer/apps/${appId}`, { token: viewer.token });
    expect(read.status).toBe(200);
    expect(read.text).not.toMatch(/fbcs_|clientSecret/);
    expect(
      (await p.request("GET", "/developer/apps", { token: viewer.token })).json.data.map((a: { id: string }) => a.id),
    ).toContain(appId);
    for (const [method, path, body] of [
      ["PATCH", `/developer/apps/${appId}`, { description: "changed by a viewer" }],
      ["POST", `/developer/apps/${appId}/client-secret`, undefined],
      ["POST", `/developer/apps/${appId}/test-install`, undefined],
      ["GET", `/developer/apps/${appId}/earnings`, undefined],
      ["POST", `/developer/apps/${appId}/members`, { email: "x@example.test", role: "VIEWER" }],
    ] as const) {
      const r = await p.request(method, path, { token: viewer.token, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.message).toMatch(/role/);
    }

    // an existing developer accepts signed in as that account, as DEVELOPER
    const dev = await p.register("DEVELOPER");
    await p.request("POST", `/developer/apps/${appId}/members`, {
      token: owner.token,
      body: { email: dev.email, role: "DEVELOPER" },
    });
    const devToken = tokenOfLink(await invitationLink(dev.email));
    const anonymous = await p.request("POST", "/auth/invitations/accept", {
      body: { token: devToken, name: "X", password: PASSWORD },
    });
    expect(anonymous.status).toBe(409);
    expect(anonymous.json.message).toContain("sign in");
    const accepted = await p.request("POST", "/auth/invitations/accept", {
      token: dev.token,
      body: { token: devToken },
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(
      (
        await p.request("PATCH", `/developer/apps/${appId}`, {
          token: dev.token,
          body: { description: "by a developer" },
        })
      ).status,
    ).toBe(200);
    const pricing = await p.request("PATCH", `/developer/apps/${appId}`, { token: dev.token, body: { pricing: [] } });
    expect(pricing.status).toBe(403);
    expect((await p.request("POST", `/developer/apps/${appId}/client-secret`, { token: dev.token })).status).toBe(403);

    // promoted to ADMIN: rotates the secret at once
    const members = (await p.request("GET", `/developer/apps/${appId}/members`, { token: viewer.token })).json;
    expect(members.data[0]).toMatchObject({ role: "OWNER", email: owner.email });
    const devId = members.data.find((m: { email: string }) => m.email === dev.email).id;
    expect(
      (
        await p.request("PATCH", `/developer/apps/${appId}/members/${devId}`, {
          token: owner.token,
          body: { role: "ADMIN" },
        })
      ).status,
    ).toBe(200);
    expect((await p.request("POST", `/developer/apps/${appId}/client-secret`, { token: dev.token })).status).toBe(200);
    // the OWNER cannot be changed or removed
    const ownerId = members.data[0].id;
    expect(
      (await p.request("DELETE", `/developer/apps/${appId}/members/${ownerId}`, { token: dev.token })).status,
    ).toBe(403);

    // a developer who is not a member: 404 everywhere
    const stranger = await p.register("DEVELOPER");
    for (const path of [
      `/developer/apps/${appId}`,
      `/developer/apps/${appId}/members`,
      `/developer/apps/${appId}/analytics`,
    ])
      expect((await p.request("GET", path, { token: stranger.token })).status).toBe(404);

    // the portal shows a VIEWER only what the role allows, and refuses the rest
    const viewerBrowser = await BrowserSession.signIn(p.url, viewerEmail, PASSWORD);
    const overview = await viewerBrowser.get(`/portal/apps/${appId}`);
    expect(overview.status).toBe(200);
    expect(overview.html).toContain("your role: <!-- -->Viewer");
    for (const hidden of [
      "Regenerate the client secret",
      "Submit for review",
      "Test-install on sandbox",
      `/portal/apps/${appId}/earnings`,
    ])
      expect(overview.html, hidden).not.toContain(hidden);
    expect((await viewerBrowser.get(`/portal/apps/${appId}/credentials`)).status).toBe(403);
    expect((await viewerBrowser.get(`/portal/apps/${appId}/earnings`)).status).toBe(403);
    const submitted = await viewerBrowser.post(`/portal/apps/${appId}`, { intent: "regenerate-secret" });
    expect(submitted.status).toBe(403);
    expect(submitted.html).toMatch(/needs the ADMIN role/);
    const membersPage = await viewerBrowser.get(`/portal/apps/${appId}/members`);
    expect(membersPage.status).toBe(200);
    expect(membersPage.html).toContain(owner.email);
    expect(membersPage.html).not.toContain("Send invitation");
    expect(
      (
        await viewerBrowser.post(`/portal/apps/${appId}/members`, {
          intent: "invite",
          email: "y@example.test",
          role: "ADMIN",
        })
      ).status,
    ).toBe(403);
    // a stranger's portal: the 404 page
    const strangerBrowser = await BrowserSession.signIn(p.url, stranger.email, PASSWORD);
    expect((await strangerBrowser.get(`/portal/apps/${appId}/members`)).status).toBe(404);

    // removed: 404 at once
    const viewerId = members.data.find((m: { email: string }) => m.email === viewerEmail).id;
    expect(
      (await p.request("DELETE", `/developer/apps/${appId}/members/${viewerId}`, { token: dev.token })).status,
    ).toBe(204);
    expect((await p.request("GET", `/developer/apps/${appId}`, { token: viewer.token })).status).toBe(404);

    // a merchant's address cannot be an app's member
    const merchant = await p.register("MERCHANT");
    const refused = await p.request("POST", `/developer/apps/${appId}/members`, {
      token: owner.token,
      body: { email: merchant.email, role: "VIEWER" },
    });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain("merchant account");
  });
});
