/**
 * The SDK as someone outside this repository gets it: `npm pack` (which builds dist/), the tarball
 * installed with npm into an empty project in the system's temporary folder (its real dependencies
 * from the npm registry, nothing of this repository), then, in that project:
 * - a webhook verified by plain `node` (ESM), and the answer a CommonJS `require()` gets;
 * - every product of the sandbox, page after page, from the real platform;
 * - `storefront-apps --help` through the package's bin, with no tsx anywhere;
 * - `tsc --module nodenext` on a file that imports the package and uses its types.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPlatform } from "../../../app/platform/testing/platform";

const p = await startPlatform();
const pkgDir = new URL("..", import.meta.url).pathname;
const repo = new URL("../../..", import.meta.url).pathname;
const project = mkdtempSync(join(tmpdir(), "sdk-outside-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The environment of a terminal: none of the npm_* variables a surrounding `npm test` sets. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));

async function run(file: string, args: string[], cwd: string, extra: Record<string, string> = {}) {
  try {
    return await promisify(execFile)(file, args, {
      cwd,
      env: { ...env, ...extra } as NodeJS.ProcessEnv,
      maxBuffer: 16 << 20,
    });
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    throw new Error(`${file} ${args.join(" ")} exited ${err.code}:\n${err.stderr}\n${err.stdout}`);
  }
}
const node = (args: string[], extra: Record<string, string> = {}) => run(process.execPath, args, project, extra);

beforeAll(async () => {
  // packed as the platform packs it (one pack at a time: its prepack rebuilds dist/)
  const { stdout } = await run(process.execPath, [join(pkgDir, "scripts/pack-public.mjs"), project], pkgDir, {
    SDK_PACK_LIST: "1",
  });
  const filename = "storefront-app-sdk.tgz";
  // what ships: the build, the bin and the document; no TypeScript source
  const paths = JSON.parse(stdout.slice(stdout.indexOf("["))) as string[];
  expect(paths).toEqual(
    expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "bin/storefront-apps.js"]),
  );
  expect(paths.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "outside", private: true, type: "module" }));
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", `./${filename}`, "@types/node@20"],
    project,
  );
}, 240_000);

describe("the packed SDK in a project outside the repository", () => {
  it("installs with its real dependencies only: no tsx, no TypeScript source", () => {
    const installed = readdirSync(join(project, "node_modules"));
    expect(installed).not.toContain("tsx");
    expect(existsSync(join(project, "node_modules/@storefront/app-sdk/src"))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/@storefront/app-sdk/package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["jose", "openapi-fetch"]);
  });

  it("verifies a webhook with plain node (ESM), and refuses a forged one", async () => {
    writeFileSync(
      join(project, "verify.mjs"),
      `import { createHmac } from "node:crypto";
import { verifyWebhook, WebhookVerificationError } from "@storefront/app-sdk";
const secret = "whsec_test_outside";
const body = JSON.stringify({ id: "evt_1", event: "order.created", businessId: "biz_1", timestamp: new Date().toISOString(), data: { orderId: "ord_1" } });
const ts = String(Math.floor(Date.now() / 1000));
const signature = "sha256=" + createHmac("sha256", secret).update(ts + "." + body).digest("hex");
const event = verifyWebhook(body, { "x-webhook-signature": signature, "x-webhook-timestamp": ts }, secret);
console.log("verified", event.event, event.data.orderId);
try {
  verifyWebhook(body + " ", { "x-webhook-signature": signature, "x-webhook-timestamp": ts }, secret);
} catch (e) {
  console.log("refused", e instanceof WebhookVerificationError, e.code);
}
`,
    );
    const { stdout } = await node(["verify.mjs"]);
    expect(stdout).toBe("verified order.created ord_1\nrefused true bad_signature\n");
  });

  it("gives CommonJS callers the module (import(), or require() where Node can) or a clear answer", async () => {
    writeFileSync(
      join(project, "cjs.cjs"),
      `import("@storefront/app-sdk").then((sdk) => console.log("import()", typeof sdk.verifyWebhook));
try {
  console.log("require()", typeof require("@storefront/app-sdk").verifyWebhook);
} catch (e) {
  console.log("require() refused:", e.message);
}
`,
    );
    const { stdout } = await node(["cjs.cjs"]);
    expect(stdout).toContain("import() function");
    // Node 20.19 and 22.12 on load ES modules with require(); older ones get the package's answer
    if ((process.features as { require_module?: boolean }).require_module)
      expect(stdout).toContain("require() function");
    else
      expect(stdout).toContain(
        'require() refused: @storefront/app-sdk is an ES module. From CommonJS use `const sdk = await import("@storefront/app-sdk")`',
      );
  });

  it("lists every product of the sandbox, page after page, from the real platform", async () => {
    const dev = await p.register("DEVELOPER");
    const app = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: {
        name: "Outside",
        slug: `outside-${Date.now()}`,
        description: "The packed SDK",
        category: "automation",
        scopes: ["read_products"],
        redirectUrl: "http://localhost:4000/oauth/callback",
      },
    });
    expect(app.status).toBe(201);
    const install = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
    expect(install.status).toBe(201);
    const total = (await p.request("GET", "/app-api/products?limit=1", { token: install.json.accessToken })).json.total;
    expect(total).toBeGreaterThan(7);

    writeFileSync(
      join(project, "list.mjs"),
      `import { createAppApiClient, paginate } from "@storefront/app-sdk";
const api = createAppApiClient({ baseUrl: process.env.PLATFORM_URL, accessToken: process.env.TOKEN });
const names = [];
for await (const product of paginate(api, "/app-api/products", { limit: 7 })) names.push(product.name);
console.log(JSON.stringify({ count: names.length, distinct: new Set(names).size }));
`,
    );
    const { stdout } = await node(["list.mjs"], { PLATFORM_URL: p.url, TOKEN: install.json.accessToken });
    expect(JSON.parse(stdout)).toEqual({ count: total, distinct: expect.any(Number) });
  });

  it("runs the CLI through the package's bin without tsx", async () => {
    const { stdout } = await run(join(project, "node_modules/.bin/storefront-apps"), ["--help"], project);
    expect(stdout).toMatch(/^storefront-apps <command>/);
    expect(stdout).toContain("test-install");
    // the same through npx, as the guide types it
    expect((await run("npx", ["--no-install", "storefront-apps", "--help"], project)).stdout).toBe(stdout);
  });

  it("compiles with tsc --module nodenext, types included", async () => {
    writeFileSync(
      join(project, "check.ts"),
      `import { createAppApiClient, verifyWebhook, type WebhookEnvelope, type components } from "@storefront/app-sdk";
import { createBridge } from "@storefront/app-sdk/bridge";
type Product = components["schemas"]["Product"];
const api = createAppApiClient({ baseUrl: "https://platform.example", accessToken: "fbat_test_x" });
export async function first(): Promise<string | undefined> {
  const { data } = await api.GET("/app-api/products", { params: { query: { limit: 1 } } });
  const product: Product | undefined = data?.data[0];
  return product?.name;
}
export const envelope: WebhookEnvelope = verifyWebhook("{}", {}, "whsec");
export const bridge = typeof createBridge;
`,
    );
    const tsc = join(repo, "node_modules/typescript/bin/tsc");
    const args = [
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--strict",
      "--noEmit",
    ];
    await node([tsc, ...args, "--types", "node", "check.ts"]);
    // and a type error is reported, so the check above is not vacuous
    writeFileSync(
      join(project, "wrong.ts"),
      `import { verifyWebhook } from "@storefront/app-sdk";\nverifyWebhook(1, {}, "s");\n`,
    );
    await expect(node([tsc, ...args, "--types", "node", "wrong.ts"])).rejects.toThrow(
      /error TS(2345|2769)[\s\S]*Argument of type 'number' is not assignable/,
    );
  }, 120_000);
});
