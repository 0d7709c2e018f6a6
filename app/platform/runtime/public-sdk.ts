/**
 * What every platform serves to app developers from `public/`, made at start when missing (a fresh
 * clone has neither: they are build products, not committed): the packed SDK at
 * /sdk/storefront-app-sdk.tgz (decision 045) and its TypeDoc reference at /sdk-reference/.
 * `npm run build` makes both too; `npm start` must not depend on it (issue 39: /sdk-reference/
 * answered 404 after `npm install && npm start`).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export type PublicSdkFiles = { tarball: string; reference: string };

/** The two paths under a public folder. */
export function publicSdkFiles(publicDir: string): PublicSdkFiles {
  return {
    tarball: path.join(publicDir, "sdk", "storefront-app-sdk.tgz"),
    reference: path.join(publicDir, "sdk-reference", "index.html"),
  };
}

/**
 * Makes whichever of the two is missing under `publicDir`, with the repository's own scripts, and
 * says what it made. Takes a while the first time (TypeDoc reads the SDK's sources); nothing after.
 */
export function ensurePublicSdk(repoRoot: string, publicDir = path.join(repoRoot, "public"), log = console.log) {
  const files = publicSdkFiles(publicDir);
  const made: string[] = [];
  if (!fs.existsSync(files.tarball)) {
    log("Packing the app SDK…");
    execFileSync(
      process.execPath,
      [path.join(repoRoot, "packages/app-sdk/scripts/pack-public.mjs"), path.dirname(files.tarball)],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    made.push(files.tarball);
  }
  if (!fs.existsSync(files.reference)) {
    log("Writing the app SDK's reference…");
    execFileSync(
      process.execPath,
      [
        path.join(repoRoot, "node_modules/typedoc/bin/typedoc"),
        "--options",
        "typedoc.json",
        "--logLevel",
        "Error",
        "--out",
        path.dirname(files.reference),
      ],
      { cwd: path.join(repoRoot, "packages/app-sdk"), stdio: ["ignore", "ignore", "inherit"] },
    );
    made.push(files.reference);
  }
  return made;
}
