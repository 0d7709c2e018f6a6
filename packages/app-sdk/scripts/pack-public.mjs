/**
 * `npm pack` of the SDK into public/sdk/storefront-app-sdk.tgz (npm run sdk:pack; part of npm run
 * build, and of `npm start` when the file is missing): every platform serves the SDK it was built
 * with at {PLATFORM_URL}/sdk/storefront-app-sdk.tgz, so a developer with only the platform's
 * address installs it with `npm install {PLATFORM_URL}/sdk/storefront-app-sdk.tgz`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync } from "node:fs";

const repo = new URL("../../../", import.meta.url).pathname;
// the folder to pack into: public/sdk, or the first argument (the tests pack into a folder of their own)
const out = process.argv[2] ?? `${repo}public/sdk`;
mkdirSync(out, { recursive: true });
const packed = JSON.parse(
  execFileSync("npm", ["pack", "--json", "--silent", "--pack-destination", out], {
    cwd: `${repo}packages/app-sdk`,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).replace(/^[^[]*/, ""),
);
const target = `${out}/storefront-app-sdk.tgz`;
rmSync(target, { force: true });
renameSync(`${out}/${packed[0].filename}`, target);
console.log(`packed @storefront/app-sdk ${packed[0].version} into ${target}`);
