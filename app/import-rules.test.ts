/**
 * The import rules of .dependency-cruiser.cjs (docs/architecture.md, "Who may import whom"): the
 * tree keeps them (the command `npm run lint:imports` runs), and each rule does catch what it is
 * there to catch (a small tree with one breach of each, in a temporary directory).
 */
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { layers } from "./platform/layers.json";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules/.bin/depcruise");
/** What `npm run lint:imports` checks. */
export const LINT_IMPORTS_ARGS = [
  "--config",
  CONFIG,
  "app",
  "storefront",
  "db",
  "jobs",
  "packages",
  "server.ts",
  "e2e",
  "bench",
  "examples",
];

type Violation = { rule: { name: string }; from: string; to: string };
async function cruise(cwd: string, args: string[]): Promise<Violation[]> {
  const out = await run(DEPCRUISE, [...args, "--output-type", "json"], { cwd, maxBuffer: 256 * 1024 * 1024 }).catch(
    (e) => e as { stdout: string },
  );
  return JSON.parse(out.stdout).summary.violations as Violation[];
}

describe("import rules", () => {
  it("hold in the tree: no circles, nothing under app/platform imports upward, db/ imports nothing of ours above it", async () => {
    const violations = await cruise(ROOT, LINT_IMPORTS_ARGS);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 120_000);

  it("place every folder of app/platform in exactly one layer", () => {
    const folders = readdirSync(path.join(ROOT, "app/platform"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const ranked = layers.flat();
    expect([...ranked].sort()).toEqual(folders);
    expect(new Set(ranked).size).toBe(ranked.length);
  });

  it("catch a domain importing its own layer or one above, and a folder with no layer (tests excepted)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "import-layers-"));
    try {
      const file = (name: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      };
      file("tsconfig.json", JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler" } }));
      file("app/platform/orders/order.ts", 'import { id } from "../core/ids";\nexport const order = id;\n');
      file("app/platform/core/ids.ts", "export const id = 1;\n");
      // the wrong way: core (the bottom) reaching up to orders
      file("app/platform/core/lookup.ts", 'import { order } from "../orders/order";\nexport const lookup = order;\n');
      // siblings of one layer stand side by side: webhooks may not import hooks
      file("app/platform/hooks/call.ts", "export const call = 1;\n");
      file("app/platform/webhooks/send.ts", 'import { call } from "../hooks/call";\nexport const send = call;\n');
      // a folder with no place in layers.json
      file("app/platform/gadgets/gadget.ts", 'import { id } from "../core/ids";\nexport const gadget = id;\n');
      // a test may import any domain
      file("app/platform/core/ids.test.ts", 'import { order } from "../orders/order";\nexport const t = order;\n');
      const violations = await cruise(dir, ["--config", CONFIG, "app"]);
      const seen = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
      expect(seen).toEqual([
        "layer-core: app/platform/core/lookup.ts -> app/platform/orders/order.ts",
        "layer-unranked: app/platform/gadgets/gadget.ts -> app/platform/core/ids.ts",
        "layer-webhooks: app/platform/webhooks/send.ts -> app/platform/hooks/call.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("catch a circle, an upward import from the platform, db importing the app, and the SDK importing the platform", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "import-rules-"));
    try {
      const file = (name: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      };
      file(
        "tsconfig.json",
        JSON.stringify({
          compilerOptions: {
            module: "ESNext",
            moduleResolution: "Bundler",
            baseUrl: ".",
            paths: { "~/*": ["./app/*"] },
          },
        }),
      );
      file("storefront/site.ts", "export const site = 1;\n");
      file("app/routes/page.tsx", "export const page = 1;\n");
      file(
        "app/platform/orders/a.ts",
        'import { site } from "../../../storefront/site";\nimport { page } from "~/routes/page";\nexport const a = site + page;\n',
      );
      file("db/client.ts", 'import { a } from "../app/platform/orders/a";\nexport const client = a;\n');
      file("jobs/worker.ts", 'import { task } from "./tasks/task";\nexport const worker = () => task;\n');
      file("jobs/tasks/task.ts", 'import { worker } from "../worker";\nexport const task = () => worker;\n');
      file("packages/sdk/src/index.ts", 'import { a } from "../../../app/platform/orders/a";\nexport const sdk = a;\n');
      file(
        "packages/sdk/test/sdk.test.ts",
        'import { a } from "../../../app/platform/orders/a";\nexport const t = a;\n',
      );
      const violations = await cruise(dir, ["--config", CONFIG, "app", "storefront", "db", "jobs", "packages"]);
      const seen = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
      expect(seen).toEqual([
        "db-is-the-bottom: db/client.ts -> app/platform/orders/a.ts",
        "no-circular: jobs/tasks/task.ts -> jobs/worker.ts",
        "packages-stand-alone: packages/sdk/src/index.ts -> app/platform/orders/a.ts",
        "platform-not-upward: app/platform/orders/a.ts -> app/routes/page.tsx",
        "platform-not-upward: app/platform/orders/a.ts -> storefront/site.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
