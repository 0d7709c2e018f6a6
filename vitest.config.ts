import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // the repository runs the SDK from its source, as tsconfig.json's paths say (tsx and Playwright
    // read those); the published package runs its build (packages/app-sdk/test/package.test.ts)
    alias: [
      { find: "~", replacement: fileURLToPath(new URL("./app", import.meta.url)) },
      {
        find: /^@storefront\/app-sdk$/,
        replacement: fileURLToPath(new URL("./packages/app-sdk/src/index.ts", import.meta.url)),
      },
      {
        find: /^@storefront\/app-sdk\/bridge$/,
        replacement: fileURLToPath(new URL("./packages/app-sdk/src/bridge.js", import.meta.url)),
      },
    ],
  },
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
