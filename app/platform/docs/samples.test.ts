/**
 * Docs that run (issue 31): the code samples of docs/developers/ marked `run=<id>` in their fence's
 * info string (```python run=token-python) are executed as a reader would, against the real
 * platform: Python with python3 and nothing but its standard library, shell samples with bash
 * (curl, openssl), Node samples with node. `{PLATFORM_URL}` is the running platform; the
 * credentials a sample reads from the environment (CLIENT_ID, CODE, WEBHOOK_SECRET, …) are real:
 * a developer, apps, installations made through the API and the consent screen.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { freePort } from "../testing/processes";

const p = await startPlatform();
const docsDir = new URL("../../../docs/developers/", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "doc-samples-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

type Sample = { file: string; lang: string; id: string | null; text: string };
const FENCE = /^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm;
const samples: Sample[] = readdirSync(docsDir)
  .filter((f) => f.endsWith(".md"))
  .flatMap((file) =>
    [...readFileSync(join(docsDir, file), "utf8").matchAll(FENCE)].map((m) => ({
      file,
      lang: m[1],
      id: /\brun=([\w-]+)/.exec(m[2])?.[1] ?? null,
      text: m[3],
    })),
  );
const sample = (id: string) => {
  const found = samples.filter((s) => s.id === id);
  expect(found, `one sample marked run=${id}`).toHaveLength(1);
  return found[0];
};

const RUNNERS: Record<string, { ext: string; command: (file: string) => [string, string[]] }> = {
  python: { ext: "py", command: (f) => ["python3", ["-I", f]] }, // -I: no user site-packages, the standard library only
  bash: { ext: "sh", command: (f) => ["bash", ["-euo", "pipefail", f]] },
  js: { ext: "mjs", command: (f) => [process.execPath, [f]] },
};

/** Writes the sample, `{PLATFORM_URL}` filled in, and starts it with only PATH, HOME and `env`. */
function start(s: Sample, env: Record<string, string>) {
  const runner = RUNNERS[s.lang];
  const file = join(work, `${s.id}.${runner.ext}`);
  writeFileSync(file, s.text.split("{PLATFORM_URL}").join(p.url));
  const [cmd, args] = runner.command(file);
  const child = spawn(cmd, args, {
    cwd: work,
    env: { PATH: process.env.PATH!, HOME: work, ...env } as unknown as NodeJS.ProcessEnv,
  });
  children.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout!.on("data", (d: Buffer) => (output.stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

async function run(id: string, env: Record<string, string> = {}) {
  const s = sample(id);
  const { output, exited } = start(s, env);
  const code = await exited;
  expect(code, `${s.file} run=${id} exited ${code}:\n${output.stderr}\n${output.stdout}`).toBe(0);
  return output.stdout;
}

const dev = await p.register("DEVELOPER");
const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);

/** A draft app of the developer, as getting-started.md creates one. */
async function createApp(overrides: Record<string, unknown> = {}) {
  const res = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: {
      name: "Doc sample",
      slug: `doc-sample-${Math.random().toString(36).slice(2, 10)}`,
      description: "Runs the documentation's samples",
      category: "automation",
      scopes: ["read_orders", "read_products"],
      redirectUrl: "http://localhost:4000/oauth/callback",
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; clientId: string; clientSecret: string };
}

/** The merchant's half of the install (here the developer, onto their sandbox): the consent screen, Install, the redirect's code. */
async function consent(authorizeUrl: string) {
  const url = new URL(authorizeUrl);
  expect(url.origin + url.pathname).toBe(`${p.url}/oauth/authorize`);
  const page = await browser.get(url.pathname + url.search);
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  expect(page.html).toContain("Install");
  const approved = await browser.post("/oauth/authorize", { ...hiddenFields(page.html), decision: "approve" });
  expect(approved.status).toBe(302);
  const back = new URL(approved.location!);
  expect(back.origin + back.pathname).toBe("http://localhost:4000/oauth/callback");
  expect(back.searchParams.get("state")).toBe(url.searchParams.get("state"));
  return back.searchParams.get("code")!;
}

const authorizeLine = (stdout: string) => stdout.split("\n").find((l) => l.startsWith(`${p.url}/oauth/authorize?`))!;
const sessionOf = (stdout: string) => {
  const [, verifier, state] = /^session: (\S+) (\S+)$/m.exec(stdout)!;
  return { verifier, state };
};

describe("docs/developers samples marked run=", () => {
  it("are each run by this file, and every runnable language is one it knows", () => {
    const marked = samples.filter((s) => s.id).map((s) => `${s.file} ${s.id}`);
    expect(marked.sort()).toEqual(
      [
        "authentication.md pkce-node",
        "authentication.md pkce-python",
        "authentication.md pkce-curl",
        "authentication.md token-curl",
        "authentication.md token-python",
        "hooks.md hook-python",
        "hooks.md hook-curl",
      ].sort(),
    );
    for (const s of samples.filter((x) => x.id))
      expect(Object.keys(RUNNERS), `${s.file} run=${s.id}`).toContain(s.lang);
  });

  it("OAuth with PKCE in Python: the authorize URL, the consent, the code exchanged for a working token", async () => {
    const app = await createApp();
    const out = await run("pkce-python", { CLIENT_ID: app.clientId });
    const session = sessionOf(out);
    const url = new URL(authorizeLine(out));
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBe(session.state);
    const code = await consent(url.href);
    const exchanged = await run("token-python", {
      CLIENT_ID: app.clientId,
      CLIENT_SECRET: app.clientSecret,
      CODE: code,
      CODE_VERIFIER: session.verifier,
    });
    const [installationId, businessId, ...scopes] = exchanged.trim().split(" ");
    expect(installationId).toMatch(/^inst_/);
    expect(businessId).toBe(dev.businessId);
    expect(scopes).toEqual(["read_orders", "read_products"]);
  });

  it("OAuth with PKCE with openssl and curl: the same, and the token answers the App API", async () => {
    const app = await createApp();
    const out = await run("pkce-curl", { CLIENT_ID: app.clientId });
    const session = sessionOf(out);
    const code = await consent(authorizeLine(out));
    const answer = JSON.parse(
      await run("token-curl", {
        CLIENT_ID: app.clientId,
        CLIENT_SECRET: app.clientSecret,
        CODE: code,
        CODE_VERIFIER: session.verifier,
      }),
    );
    expect(answer).toMatchObject({ token_type: "Bearer", business_id: dev.businessId });
    expect(answer.access_token).toMatch(/^fbat_test_/);
    expect((await p.request("GET", "/app-api/products?limit=1", { token: answer.access_token })).status).toBe(200);
    // the verifier is what binds the code: a second exchange of it is refused
    const again = await run("token-curl", {
      CLIENT_ID: app.clientId,
      CLIENT_SECRET: app.clientSecret,
      CODE: code,
      CODE_VERIFIER: session.verifier,
    });
    expect(JSON.parse(again).error).toBe("invalid_grant");
  });

  it("OAuth with PKCE in Node: the URL it prints opens the consent screen and Install brings a code", async () => {
    const app = await createApp();
    const out = await run("pkce-node", { CLIENT_ID: app.clientId });
    const url = new URL(authorizeLine(out));
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(await consent(url.href)).toBeTruthy();
  });

  it("the Python hook handler answers the curl call signed by hand, and the platform's real checkout", async () => {
    const port = await freePort();
    const app = await createApp({
      scopes: ["read_products", "read_orders", "write_orders", "write_shipping"],
      webhookUrl: `http://127.0.0.1:${port}`,
    });
    const manifest = await p.request("PUT", `/developer/apps/${app.id}/manifest`, {
      token: dev.token,
      body: { hooks: [{ hookPoint: "checkout.shipping_rates", url: "/hooks/shipping" }] },
    });
    expect(manifest.status, manifest.text).toBe(200);
    const install = await p.request("POST", `/developer/apps/${app.id}/test-install`, { token: dev.token });
    expect(install.status).toBe(201);
    const secret = install.json.webhookSecret as string;

    const handler = start(sample("hook-python"), { WEBHOOK_SECRET: secret, PORT: String(port) });
    const up = async () => {
      for (let i = 0; i < 100; i++) {
        if (handler.child.exitCode !== null) throw new Error(`the handler exited: ${handler.output.stderr}`);
        const ok = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "" }).then(
          () => true,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the handler did not listen");
    };
    await up();

    // the doc's curl call (its localhost:4000 is where this handler listens here)
    const curl = sample("hook-curl");
    const byHand = start(
      { ...curl, text: curl.text.replace("http://localhost:4000", `http://127.0.0.1:${port}`) },
      {
        WEBHOOK_SECRET: secret,
      },
    );
    expect(await byHand.exited, byHand.output.stderr).toBe(0);
    expect(JSON.parse(byHand.output.stdout)).toEqual({ fee: { amount: 450, currency: "USD" } });
    const answeredByHand = handler.output.stderr.split("\n").filter((l) => l.includes("/hooks/shipping")).length;
    // a wrong secret is refused
    const forged = start(
      {
        ...curl,
        id: "hook-curl-forged",
        text: curl.text
          .replace("http://localhost:4000", `http://127.0.0.1:${port}`)
          .replace("curl -s", "curl -s -o /dev/null -w '%{http_code}'"),
      },
      {
        WEBHOOK_SECRET: "whsec_test_wrong",
      },
    );
    await forged.exited;
    expect(forged.output.stdout).toBe("401");

    // the platform's checkout calls it: a guest order's delivery fee is the handler's
    const token = install.json.accessToken as string;
    const products = await p.request("GET", "/app-api/products?limit=50", { token });
    // the app is on the current API version: money as {amount, currency} in minor units
    const product = (products.json.data as { id: string; price: { amount: number }; isAvailable: boolean }[]).find(
      (x) => x.isAvailable && x.price.amount < 1500,
    )!;
    const order = await p.request("POST", "/app-api/orders", {
      token,
      body: {
        customer: { name: "Sam Lee", phone: "+1 555 0100", email: "sam@example.com" },
        items: [{ productId: product.id, quantity: 1 }],
        deliveryMethod: "DELIVERY",
        paymentMethod: "CASH",
        address: "12 Main St",
      },
    });
    expect(order.status, order.text).toBe(201);
    // under 30.00 the handler adds 1.50 to the platform's own 3.00; its request log shows the
    // platform's call, answered 200
    expect(order.json.subtotal.amount).toBeLessThan(3000);
    expect(order.json.deliveryFee).toEqual({ amount: 450, currency: order.json.currency });
    const lines = handler.output.stderr.split("\n").filter((l) => l.includes("/hooks/shipping"));
    expect(lines.length).toBeGreaterThan(answeredByHand + 1); // + the forged call, then the platform's
    expect(lines.at(-1)).toMatch(/"POST \/hooks\/shipping HTTP\/1\.1" 200/);
  });
});
