/**
 * One `npm pack` of the SDK at a time (scripts/pack-public.mjs): the pack's prepack empties dist/ and
 * builds it again, so two packs side by side (two test files, or a test beside `npm run sdk:pack`)
 * made a tarball without dist/. Packs started at staggered moments all ship dist/; a pack waits
 * while another holds the lock, and takes over a lock left by a killed pack.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const pkgDir = new URL("..", import.meta.url).pathname;
const script = join(pkgDir, "scripts/pack-public.mjs");
const lock = join(pkgDir, ".pack.lock");
const work = mkdtempSync(join(tmpdir(), "sdk-pack-lock-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A pack into a folder of its own; answers the files it packed. */
async function pack(name: string): Promise<string[]> {
  const out = join(work, name);
  const { stdout } = await promisify(execFile)(process.execPath, [script, out], {
    env: { ...process.env, SDK_PACK_LIST: "1" },
    maxBuffer: 16 << 20,
  });
  expect(existsSync(join(out, "storefront-app-sdk.tgz"))).toBe(true);
  return JSON.parse(stdout.slice(stdout.indexOf("["))) as string[];
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes the lock as a pack does (another test file may be packing now). */
async function takeLock() {
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST" || tries > 600) throw error;
      await delay(100);
    }
  }
}

it("packs started one after another while the others run all ship the build", async () => {
  const lists = await Promise.all(
    [0, 1500, 1700, 1900, 2100].map(async (ms, i) => {
      await delay(ms);
      return pack(`staggered-${i}`);
    }),
  );
  for (const files of lists) expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/cli/main.js"]));
}, 120_000);

it("waits while another pack holds the lock, and takes over a lock left for more than 5 minutes", async () => {
  let held = false;
  try {
    await takeLock();
    held = true;
    let done = false;
    const waiting = pack("waiting").then((files) => {
      done = true;
      return files;
    });
    // longer than a pack takes alone (2-3 s here)
    await delay(5000);
    expect(done).toBe(false);
    expect(existsSync(join(work, "waiting", "storefront-app-sdk.tgz"))).toBe(false);
    rmSync(lock, { recursive: true, force: true });
    held = false;
    expect(await waiting).toContain("dist/index.js");

    // a lock whose holder was killed: six minutes old
    await takeLock();
    const old = new Date(Date.now() - 6 * 60_000);
    utimesSync(lock, old, old);
    expect(await pack("stale")).toContain("dist/index.js");
  } finally {
    if (held) rmSync(lock, { recursive: true, force: true });
  }
}, 120_000);
