/**
 * Builds the package to JavaScript and declarations in dist/ (npm run build; also before npm pack):
 * tsc with tsconfig.build.json, the bridge's hand-written declarations beside its JavaScript, and
 * dist/require.cjs, the answer a CommonJS `require()` gets. Plain Node: no tsx, no bundler.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const here = (path) => new URL(`../${path}`, import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(here("dist"), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", here("tsconfig.build.json")], { stdio: "inherit" });
copyFileSync(here("src/bridge.d.ts"), here("dist/bridge.d.ts"));
chmodSync(here("dist/cli/main.js"), 0o755);
writeFileSync(
  here("dist/require.cjs"),
  `// CommonJS callers: Node 22.12 and later load the ES module with require(); older Node answers clearly.
"use strict";
try {
  module.exports = require("./index.js");
} catch (error) {
  if (error && (error.code === "ERR_REQUIRE_ESM" || error.code === "ERR_REQUIRE_ASYNC_MODULE"))
    throw new Error(
      "@storefront/app-sdk is an ES module. From CommonJS use \`const sdk = await import(\\"@storefront/app-sdk\\")\`, " +
        "or run Node 22.12 or later, where require() loads ES modules.",
      { cause: error },
    );
  throw error;
}
`,
);
console.log("built packages/app-sdk/dist");
