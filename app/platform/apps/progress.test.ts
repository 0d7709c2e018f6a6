/**
 * The portal's "Next steps" follow what the developer has done (issue 31): each step is marked done
 * from the platform's own records, the first open one is "Next", and the CLI commands are named.
 */
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { startReceiver, eventually } from "../testing/receiver";
import { appBody } from "./apps.test-helpers";

const p = await startPlatform({ worker: true });

/** Each step's state as the page shows it: done, next or open. */
async function stepsOn(browser: BrowserSession) {
  const page = await browser.get("/portal");
  expect(page.status).toBe(200);
  const states: Record<string, string> = {};
  for (const m of page.html.matchAll(/<li data-step="([\w-]+)"(?: class="(\w+)")?/g)) states[m[1]] = m[2] ?? "open";
  return { states, html: page.html };
}

describe("the portal's next steps", () => {
  it("mark app, test install, first delivery, manifest and submission done as the developer does them", async () => {
    const dev = await p.register("DEVELOPER");
    const other = await p.register("DEVELOPER");
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);

    let seen = await stepsOn(browser);
    expect(seen.states).toEqual({
      app: "next",
      "test-install": "open",
      delivery: "open",
      manifest: "open",
      submit: "open",
    });
    expect(seen.html).toContain("Create your first app");
    expect(seen.html).toContain("npx storefront-apps test-install");
    expect(seen.html).toContain("0 of 5 done.");
    // where the CLI comes from: this platform's own SDK tarball, which it serves
    const sdkUrl = /npm install (\S+\/sdk\/storefront-app-sdk\.tgz)/.exec(seen.html)![1];
    expect(sdkUrl).toBe(`${p.env.publicUrl}/sdk/storefront-app-sdk.tgz`);
    const tarball = await fetch(`${p.url}/sdk/storefront-app-sdk.tgz`);
    expect(tarball.status).toBe(200);
    expect([...new Uint8Array(await tarball.arrayBuffer()).slice(0, 2)]).toEqual([0x1f, 0x8b]); // gzip

    const receiver = await startReceiver({ status: 200 });
    const app = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ webhookUrl: receiver.url, webhookEvents: ["order.created"] }),
    });
    expect(app.status, app.text).toBe(201);
    // another developer's progress is not this one's
    await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: other.token });
    seen = await stepsOn(browser);
    expect(seen.states).toMatchObject({ app: "done", "test-install": "next" });
    expect(seen.html).toContain("Create an app (you have 1)");
    expect(seen.html).not.toContain("Create your first app");

    expect((await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token })).status).toBe(
      201,
    );
    expect((await stepsOn(browser)).states).toMatchObject({ "test-install": "done", delivery: "next" });

    expect(
      (
        await p.request("POST", `/developer/apps/${app.json.id}/trigger`, {
          token: dev.token,
          body: { event: "order.created" },
        })
      ).status,
    ).toBe(202);
    await eventually(async () => expect((await stepsOn(browser)).states.delivery).toBe("done"));
    expect((await stepsOn(browser)).states).toMatchObject({ delivery: "done", manifest: "next" });

    const manifest = await p.request("PUT", `/developer/apps/${app.json.id}/manifest`, { token: dev.token, body: {} });
    expect(manifest.status, manifest.text).toBe(200);
    expect((await stepsOn(browser)).states).toMatchObject({ manifest: "done", submit: "next" });

    expect((await p.request("POST", `/developer/apps/${app.json.id}/submit`, { token: dev.token })).status).toBe(200);
    seen = await stepsOn(browser);
    expect(Object.values(seen.states)).toEqual(["done", "done", "done", "done", "done"]);
    expect(seen.html).toContain("All done: your app is submitted.");
  });
});
