import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: ".data/e2e-results",
  use: {
    // the platform's origin; storefront pages (/s/…) move to http://127.0.0.1:PORT (decision 013)
    baseURL: `http://localhost:${PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    screenshot: "only-on-failure",
    trace: "off",
  },
  webServer: {
    // the patch of postgres.js's reconnect (docs/reliability.md) registered before the graph loads
    command: `node --experimental-async-context-frame --import tsx --import ./db/postgres-fix.ts e2e/serve.ts`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(PORT) },
    stdout: "pipe",
  },
});
