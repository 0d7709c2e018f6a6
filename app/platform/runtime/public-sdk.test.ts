/**
 * Issue 39: `/sdk-reference/` answered 404 after `npm install && npm start` on a fresh clone (only
 * `npm run build` wrote it). The start now makes what is missing; this runs the same function on an
 * empty public folder, as a fresh clone has, and serves the result through the real web server.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePublicSdk, publicSdkFiles } from "./public-sdk";

const repo = path.resolve(new URL("../../../", import.meta.url).pathname);

it("makes the SDK's tarball and its reference when a fresh clone has neither, and nothing the second time", () => {
  const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "public-sdk-"));
  try {
    const logged: string[] = [];
    const made = ensurePublicSdk(repo, publicDir, (line) => logged.push(line));
    const files = publicSdkFiles(publicDir);
    expect(made).toEqual([files.tarball, files.reference]);
    // a gzip tarball, and a reference page naming the SDK's client
    expect(fs.readFileSync(files.tarball).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const index = fs.readFileSync(files.reference, "utf8");
    expect(index).toContain("@storefront/app-sdk");
    const client = path.join(path.dirname(files.reference), "functions", "index.createAppApiClient.html");
    expect(fs.readFileSync(client, "utf8")).toContain("createAppApiClient");
    expect(logged).toEqual(["Packing the app SDK…", "Writing the app SDK's reference…"]);
    expect(ensurePublicSdk(repo, publicDir, () => {})).toEqual([]);
  } finally {
    fs.rmSync(publicDir, { recursive: true, force: true });
  }
}, 180_000);
