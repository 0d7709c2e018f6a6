#!/usr/bin/env node
// `npx storefront-apps <command>`. The package runs its build (dist/, plain Node). A checkout of the
// platform's repository, where src/ sits beside bin/, runs the source through tsx instead, so the
// repository's tests always run the CLI as it is written, never a stale build.
import { existsSync } from "node:fs";

const source = new URL("../src/cli/main.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else await import("../dist/cli/main.js");
