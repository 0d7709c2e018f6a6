/**
 * The attack of issue 22, in real Chromium: an installed app's script embed on the storefront of a
 * merchant who is signed in to the admin in the same browser, and the same app's block iframe, try to
 * read the admin, the portal and the consent screen, and to post the admin's product form and the
 * consent form. With the storefront on an origin of its own (decision 013) they read nothing and
 * change nothing. On a single origin the embed read /admin/orders with the merchant's cookie.
 */
import { type Page } from "@playwright/test";
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";
import { randomBytes } from "node:crypto";
import { test, expect, apiToken, publishApp, signIn, DEMO, installApp, scriptEmbed } from "./helpers";

/** What the attacker's code tries, as one function run both in the embed and in the block iframe. */
function attack(platform: string, oauthQuery: string) {
  return (async () => {
    const results: Record<string, { status?: number; url?: string; body?: string; error?: string }> = {};
    const attempt = async (name: string, url: string, init: RequestInit = {}) => {
      try {
        const res = await fetch(url, { credentials: "include", ...init });
        results[name] = { status: res.status, url: res.url, body: (await res.text()).slice(0, 50_000) };
      } catch (e) {
        results[name] = { error: String(e) };
      }
    };
    const reads = [
      "/admin/orders",
      "/admin/reviews",
      "/admin/settings",
      "/admin",
      "/portal",
      `/oauth/authorize?${oauthQuery}`,
    ];
    for (const path of reads) {
      await attempt(`same-origin ${path}`, path);
      await attempt(`platform ${path}`, platform + path);
    }
    // whatever CSRF token the attacker could find on its own page
    const token = (document.querySelector('input[name="csrf"]') as HTMLInputElement | null)?.value ?? "";
    const product = new URLSearchParams({
      csrf: token,
      name: "Injected by an app",
      description: "x",
      price: "1.00",
      category: "Hacks",
      status: "ACTIVE",
      isAvailable: "on",
    });
    for (const base of ["", platform]) {
      await attempt(`post product ${base || "same-origin"}`, `${base}/admin/products/new`, {
        method: "POST",
        body: product,
      });
      await attempt(`post product no-cors ${base || "same-origin"}`, `${base}/admin/products/new`, {
        method: "POST",
        body: product,
        mode: "no-cors",
      });
      const consent = new URLSearchParams([
        ["csrf", token],
        ["decision", "approve"],
        ...new URLSearchParams(oauthQuery),
      ]);
      await attempt(`post consent ${base || "same-origin"}`, `${base}/oauth/authorize`, {
        method: "POST",
        body: consent,
        mode: "no-cors",
      });
    }
    // and a plain form submission, as a page could make without fetch
    const form = document.createElement("form");
    form.method = "post";
    form.action = platform + "/admin/products/new";
    form.target = "attack-sink";
    for (const [k, v] of product) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = k;
      input.value = v;
      form.appendChild(input);
    }
    const sink = document.createElement("iframe");
    sink.name = "attack-sink";
    sink.style.display = "none";
    document.body.appendChild(sink);
    document.body.appendChild(form);
    try {
      form.submit();
    } catch (e) {
      results["form submit"] = { error: String(e) };
    }
    document.documentElement.dataset.attack = JSON.stringify(results);
  })();
}

/** The attacker's app: a GLOBAL_SCRIPT and a block page, each running `attack`. */
async function startAttackerApp(platform: string, oauthQuery: () => string) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const code = `(${attack.toString()})(${JSON.stringify(platform)}, ${JSON.stringify(oauthQuery())});`;
    if (path === "/attack.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return res.end(code);
    }
    if (path === "/block") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end(
        `<!doctype html><title>block</title><p>An innocent block</p><script>window.parent.postMessage({ type: "SERVICE_BLOCK_READY" }, "*");${code}</script>`,
      );
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<!doctype html><title>App</title><h1>Connected to the app</h1>");
  });
  return {
    url: await listenLocally(server),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type Results = Record<string, { status?: number; url?: string; body?: string; error?: string }>;

/** Nothing the attacker got back shows anything of the admin, the portal or the consent screen. */
function expectNothingRead(results: Results, where: string) {
  expect(Object.keys(results).length, where).toBeGreaterThan(10);
  for (const [name, r] of Object.entries(results)) {
    const body = r.body ?? "";
    expect(body, `${where}: ${name}`).not.toContain(DEMO.merchant.email);
    expect(body, `${where}: ${name}`).not.toContain('name="csrf"');
    expect(body, `${where}: ${name}`).not.toMatch(/Sign out|Orders|Install/);
  }
}

async function productCount(page: Page, name: string) {
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  return page.locator("tbody tr", { hasText: name }).count();
}

test("an installed app's script and block on the storefront cannot act as the signed-in merchant", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const platform = new URL(baseURL!).origin;
  const suffix = randomBytes(3).toString("hex");
  // a second app whose consent the attacker tries to approve for the merchant
  let victimQuery = "";
  const attacker = await startAttackerApp(platform, () => victimQuery);
  const victim = await publishApp(request, {
    name: `Other App ${suffix}`,
    slug: `other-app-${suffix}`,
    description: "Another app",
    category: "other",
    scopes: ["read_orders"],
    redirectUrl: `${attacker.url}/victim-callback`,
  });
  victimQuery = new URLSearchParams({
    response_type: "code",
    client_id: victim.clientId,
    redirect_uri: `${attacker.url}/victim-callback`,
    state: "s",
  }).toString();
  const app = await publishApp(request, {
    name: `Tracker ${suffix}`,
    slug: `tracker-${suffix}`,
    description: "Analytics for your shop (and more)",
    category: "analytics",
    scopes: ["read_business"],
    redirectUrl: `${attacker.url}/callback`,
    manifest: {
      blocks: [{ blockType: "innocent", name: "Innocent block", renderUrl: `${attacker.url}/block` }],
      embeds: [scriptEmbed("tracker", "Tracker", "body_end", `${attacker.url}/attack.js`)],
    },
  });

  // the merchant signs in to the admin and installs the app (scopes: read_business only)
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await installApp(page, app.slug);
  // and places its block on the home page
  const merchantToken = await apiToken(request, DEMO.merchant.email, DEMO.merchant.password);
  const home = await (
    await request.get("/merchant/pages/home", { headers: { Authorization: `Bearer ${merchantToken}` } })
  ).json();
  const placed = await request.put("/merchant/pages/home", {
    headers: { Authorization: `Bearer ${merchantToken}` },
    data: {
      title: home.title,
      isPublished: true,
      blocks: [
        ...home.blocks.map((b: any) => ({ kind: b.kind, type: b.type, appId: b.appId, settings: b.settings })),
        { kind: "app", type: "innocent", appId: app.id, settings: {} },
      ],
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);

  // still signed in to the admin, the merchant opens their own storefront in the same browser
  const victimInstallsBefore = await (
    await request.get("/merchant/installations", { headers: { Authorization: `Bearer ${merchantToken}` } })
  ).json();
  await page.goto("/s/demo-bistro");
  const storefrontOrigin = new URL(page.url()).origin;
  expect(storefrontOrigin).not.toBe(platform);
  // the platform's session cookie never reaches the storefront's host
  expect((await page.context().cookies(storefrontOrigin)).map((c) => c.name)).not.toContain("__session");
  expect((await page.context().cookies(platform)).map((c) => c.name)).toContain("__session");

  // the embed ran and reported
  await expect(page.locator("html[data-attack]")).toHaveCount(1, { timeout: 20_000 });
  const fromEmbed: Results = JSON.parse((await page.locator("html").getAttribute("data-attack"))!);
  expectNothingRead(fromEmbed, "embed");
  // the block ran in its iframe and reported
  const block = page.frameLocator('iframe[title="Innocent block"]');
  await expect(block.locator("html[data-attack]")).toHaveCount(1, { timeout: 20_000 });
  const fromBlock: Results = JSON.parse((await block.locator("html").getAttribute("data-attack"))!);
  expectNothingRead(fromBlock, "block");
  await page.waitForTimeout(500); // let the form submission land, if it could

  // nothing changed: no product, no installation of the other app
  expect(await productCount(page, "Injected by an app")).toBe(0);
  const victimInstallsAfter = await (
    await request.get("/merchant/installations", { headers: { Authorization: `Bearer ${merchantToken}` } })
  ).json();
  expect(victimInstallsAfter.data.filter((i: any) => i.appId === victim.id)).toHaveLength(0);
  expect(victimInstallsAfter.total).toBe(victimInstallsBefore.total);
  // and the merchant is still signed in to the admin
  await page.goto("/admin");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // clean up: uninstall, so that other tests see the demo shop as before
  for (const i of victimInstallsAfter.data.filter((x: any) => x.appId === app.id && x.status === "ACTIVE"))
    await request.delete(`/merchant/installations/${i.installationId}`, {
      headers: { Authorization: `Bearer ${merchantToken}` },
    });
  await attacker.close();
});
