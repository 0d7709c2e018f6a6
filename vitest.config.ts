import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    globals: true,
    include: [
      "app/**/*.test.ts",
      "db/**/*.test.ts",
      "jobs/**/*.test.ts",
      "storefront/**/*.test.ts",
      "examples/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "deploy/**/*.test.ts",
    ],
    globalSetup: ["./db/testing/global-setup.ts"],
    // the patch of postgres.js's reconnect (docs/reliability.md), before any test file loads the driver
    setupFiles: ["./db/postgres-fix.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
