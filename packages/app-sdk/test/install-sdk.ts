/** The SDK put into an app's folder as `npm install` of the published package would (the CLI tests of `init` and `dev`). */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";

const sdk = new URL("..", import.meta.url).pathname;
const repoModules = new URL("../../../node_modules/", import.meta.url).pathname;

/** The package as npm would install it: compiled to dist/ beside its package.json, its dependencies beside it. */
export async function installSdk(project: string) {
  const target = join(project, "node_modules/@storefront/app-sdk");
  mkdirSync(target, { recursive: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await promisify(execFile)(process.execPath, [
    tsc,
    "-p",
    join(sdk, "tsconfig.build.json"),
    "--outDir",
    join(target, "dist"),
  ]);
  copyFileSync(join(sdk, "package.json"), join(target, "package.json"));
  copyFileSync(join(sdk, "src/bridge.d.ts"), join(target, "dist/bridge.d.ts"));
  writeFileSync(join(target, "dist/require.cjs"), 'module.exports = require("./index.js");\n');
  for (const dep of ["jose", "openapi-fetch", "openapi-typescript-helpers"])
    symlinkSync(join(repoModules, dep), join(project, "node_modules", dep), "dir");
}
