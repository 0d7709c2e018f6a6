/**
 * The manifest editor's live check (`POST /portal/apps/<id>/manifest/lint`): the server's problems
 * with the JSON pointer of each field, the same words as Check and Save; CSRF, tenant and bad
 * input refused like every page form. (The built app in build/ must be current.)
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { readAnswer, startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { apps, extensions } from "../../../db/schema";
import { checkManifestText } from "./manifest-text.server";

const p = await startPlatform();
const PASSWORD = "correct horse battery";
const dev = await p.register("DEVELOPER");
const other = await p.register("DEVELOPER");
const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({}) });
const appId = created.json.id as string;
const lintPath = `/portal/apps/${appId}/manifest/lint`;

const browser = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
await browser.get(`/portal/apps/${appId}/manifest`);

async function lint(
  session: BrowserSession,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const url = session.urlOf(path);
  const res = await fetch(url, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: session.cookieHeader(url), Origin: url.origin, ...headers },
    redirect: "manual",
  });
  return readAnswer(res);
}

describe("checkManifestText", () => {
  it("answers the server's problems, naming each field", () => {
    expect(checkManifestText('{"blocks": [}').problems[0]).toMatch(/^manifest: not valid JSON \(/);
    expect(checkManifestText("[]").problems).toEqual(["manifest: must be a JSON object"]);
    expect(
      checkManifestText('{"blocks": [{"blockType": "a", "name": "A", "renderUrl": "https://a.example/x"}]}'),
    ).toEqual({ raw: { blocks: [{ blockType: "a", name: "A", renderUrl: "https://a.example/x" }] }, problems: [] });
  });
});

describe("POST /portal/apps/<id>/manifest/lint", () => {
  it("answers each problem with its JSON pointer and the server's own message, and changes nothing", async () => {
    const before = await p.db
      .select({ manifest: apps.manifest, updatedAt: apps.updatedAt })
      .from(apps)
      .where(eq(apps.id, appId));
    const manifest = {
      blocks: [
        { blockType: "banner", name: "Banner", renderUrl: "ftp://x" },
        { blockType: "banner", name: "Two", renderUrl: "https://a.example/b" },
      ],
      hooks: [{ url: "/x" }],
      extra: 1,
    };
    const res = await lint(browser, lintPath, { csrf: browser.csrf, manifest: JSON.stringify(manifest, null, 2) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        { path: "/blocks/0/renderUrl", message: 'blocks[0].renderUrl: must match pattern "^https?://[^\\s]+$"' },
        { path: "/hooks/0/hookPoint", message: "hooks[0].hookPoint: must have required property 'hookPoint'" },
        { path: "/extra", message: "extra: is not allowed" },
      ]),
    );
    // the same words as the page's Check
    const check = await browser.post(`/portal/apps/${appId}/manifest`, {
      intent: "check",
      manifest: JSON.stringify(manifest),
    });
    expect(check.status).toBe(400);
    for (const e of res.json.errors)
      expect(check.html).toContain(e.message.replace(/'/g, "&#x27;").replace(/"/g, "&quot;"));
    // rules beyond the schema, once it passes: keys used twice
    const twice = await lint(browser, lintPath, {
      csrf: browser.csrf,
      manifest: JSON.stringify({ blocks: manifest.blocks.map((b) => ({ ...b, renderUrl: "https://a.example/b" })) }),
    });
    expect(twice.json.errors).toEqual([
      { path: "/blocks/1/blockType", message: 'blocks[1].blockType: "banner" is used twice' },
    ]);
    const valid = await lint(browser, lintPath, {
      csrf: browser.csrf,
      manifest: JSON.stringify({ blocks: [manifest.blocks[1]] }),
    });
    expect(valid.json).toEqual({ errors: [] });
    const bad = await lint(browser, lintPath, { csrf: browser.csrf, manifest: "{ nope" });
    expect(bad.json.errors).toEqual([{ path: "", message: expect.stringMatching(/^manifest: not valid JSON/) }]);
    expect(
      await p.db.select({ manifest: apps.manifest, updatedAt: apps.updatedAt }).from(apps).where(eq(apps.id, appId)),
    ).toEqual(before);
    expect(await p.db.select().from(extensions).where(eq(extensions.appId, appId))).toEqual([]);
  });

  it("refuses a missing or foreign token, a foreign Origin, NUL characters, another developer's app, and the signed-out", async () => {
    const body = { manifest: "{}" };
    expect((await lint(browser, lintPath, body)).status).toBe(403);
    expect((await lint(browser, lintPath, { ...body, csrf: "forged" })).status).toBe(403);
    expect(
      (await lint(browser, lintPath, { ...body, csrf: browser.csrf }, { Origin: "https://evil.example" })).status,
    ).toBe(403);
    const nul = await lint(browser, lintPath, { manifest: "{}\u0000", csrf: browser.csrf });
    expect(nul.status).toBe(400);
    expect(nul.text).toContain("may not contain NUL characters");

    const otherBrowser = await BrowserSession.signIn(p.url, other.email, PASSWORD);
    await otherBrowser.get("/portal");
    const foreign = await lint(otherBrowser, lintPath, { ...body, csrf: otherBrowser.csrf });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toBeNull();

    const anonymous = new BrowserSession(p.url);
    const signedOut = await lint(anonymous, lintPath, body);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    // the positive control: the same request with this developer's own token is answered
    expect((await lint(browser, lintPath, { ...body, csrf: browser.csrf })).status).toBe(200);
  });
});
