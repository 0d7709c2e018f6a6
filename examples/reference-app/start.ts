/**
 * npm run example: starts the reference app beside a running platform, registers it as an app of
 * the demo developer (creating it, or updating it and issuing a fresh client secret), and prints
 * what to click.
 */
import { startReferenceApp } from "./app";
import { registerReferenceApp } from "./register";

const platform = (process.env.PLATFORM_URL ?? "http://localhost:3000").replace(/\/$/, "");
const port = Number(process.env.REFERENCE_APP_PORT ?? 4000);
const developer = {
  email: process.env.DEMO_DEVELOPER_EMAIL ?? "developer@demo.test",
  password: process.env.DEMO_DEVELOPER_PASSWORD ?? "demo-developer-1",
};

async function main() {
  try {
    await fetch(`${platform}/healthz`);
  } catch {
    console.error(`The platform does not answer at ${platform}. Start it first with: npm start`);
    process.exit(1);
  }
  const app = await startReferenceApp({
    platformUrl: platform,
    storefrontUrl: process.env.STOREFRONT_URL,
    clientId: "pending",
    clientSecret: "pending",
    port,
    dataFile: ".data/reference-app.json",
    log: (l) => console.log(`[reference-app] ${l}`),
  });
  const record = await registerReferenceApp(platform, developer, app.url);
  app.setCredentials(record.clientId, record.clientSecret);
  console.log(`
  Reference App is running at ${app.url} and registered as "${record.name}" (${record.id}).

  Try it:
    1. Sign in at ${platform}/login as ${developer.email} / ${developer.password}
    2. Open ${platform}/portal/apps/${record.id} and press "Test-install on sandbox"
       (then "Block preview" to see the loyalty banner with live settings)
    3. Press "Submit for review"; sign in as reviewer@demo.test / demo-reviewer-1 and approve it
    4. Sign in as merchant@demo.test / demo-merchant-1, open ${platform}/marketplace/reference-app and Install
    5. Place the "Loyalty banner" block in Admin → Site pages, and check out at ${platform}/s/demo-bistro with RefPay

  Press Ctrl-C to stop.`);
  process.on("SIGINT", async () => {
    await app.close();
    process.exit(0);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
