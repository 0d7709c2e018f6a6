/**
 * `npm pack` of the SDK into public/sdk/storefront-app-sdk.tgz (npm run sdk:pack; part of npm run
 * build, and of `npm start` when the file is missing): every platform serves the SDK it was built
 * with at {PLATFORM_URL}/sdk/storefront-app-sdk.tgz, so a developer with only the platform's
 * address installs it with `npm install {PLATFORM_URL}/sdk/storefront-app-sdk.tgz`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, statSync } from "node:fs";

const repo = new URL("../../../", import.meta.url).pathname;
// the folder to pack into: public/sdk, or the first argument (the tests pack into a folder of their own)
const out = process.argv[2] ?? `${repo}public/sdk`;
mkdirSync(out, { recursive: true });

/**
 * One `npm pack` of the SDK at a time on this machine: its prepack empties dist/ and builds it again,
 * so a second pack running beside it listed, or packed, a dist/ that was not there (two test files
 * packing at once: the tarball without dist/). The lock is a folder (mkdir either makes it or fails);
 * one left by a killed pack is taken over after 5 minutes.
 */
const lock = `${repo}packages/app-sdk/.pack.lock`;
const STALE_MS = 5 * 60_000;
function takeLock() {
  const giveUp = Date.now() + STALE_MS + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (age > STALE_MS) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > giveUp) throw new Error(`another npm pack of the SDK has held ${lock} too long`);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

takeLock();
let packed;
try {
  packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--silent", "--pack-destination", out], {
      cwd: `${repo}packages/app-sdk`,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).replace(/^[^[]*/, ""),
  );
} finally {
  rmSync(lock, { recursive: true, force: true });
}
const target = `${out}/storefront-app-sdk.tgz`;
rmSync(target, { force: true });
renameSync(`${out}/${packed[0].filename}`, target);
console.log(`packed @storefront/app-sdk ${packed[0].version} into ${target}`);
// the files packed, for a caller that checks them (packages/app-sdk/test/package.test.ts)
if (process.env.SDK_PACK_LIST) console.log(JSON.stringify(packed[0].files.map((f) => f.path)));
