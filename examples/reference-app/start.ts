/**
 * npm run example: starts the reference app beside a running platform, registers it as an app of
 * the demo developer (creating it, or updating it and issuing a fresh client secret), and prints
 * what to click.
 */
import { startReferenceApp } from "./app";
import { referenceManifest, REFERENCE_EVENTS, REFERENCE_SCOPES } from "./manifest";

const platform = (process.env.PLATFORM_URL ?? "http://localhost:3000").replace(/\/$/, "");
const port = Number(process.env.REFERENCE_APP_PORT ?? 4000);
const developer = {
  email: process.env.DEMO_DEVELOPER_EMAIL ?? "developer@demo.test",
  password: process.env.DEMO_DEVELOPER_PASSWORD ?? "demo-developer-1",
};

async function api(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(platform + path, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json?.message ?? JSON.stringify(json)}`);
  return json;
}

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
  const { token } = await api("POST", "/auth/login", undefined, developer);
  const listing = {
    name: "Reference App",
    description:
      "The platform's reference app: loyalty banner, badge, chat widget, RefPay payments, free delivery and a welcome discount.",
    category: "loyalty",
    scopes: REFERENCE_SCOPES,
    redirectUrl: `${app.url}/oauth/callback`,
    webhookUrl: `${app.url}/webhooks`,
    webhookEvents: REFERENCE_EVENTS,
    // the app answers hooks and reads money in this API version's shape ({amount, currency})
    apiVersion: "2026-11-27",
  };
  const mine = await api("GET", "/developer/apps?limit=100", token);
  let record = mine.data.find((a: { slug: string }) => a.slug === "reference-app");
  let clientSecret: string;
  if (!record) {
    record = await api("POST", "/developer/apps", token, {
      ...listing,
      slug: "reference-app",
      manifest: referenceManifest(app.url),
    });
    clientSecret = record.clientSecret;
  } else {
    if (record.status !== "PENDING_REVIEW" && !record.updateInReview) {
      await api("PATCH", `/developer/apps/${record.id}`, token, listing);
      await api("PUT", `/developer/apps/${record.id}/manifest`, token, referenceManifest(app.url));
    }
    clientSecret = (await api("POST", `/developer/apps/${record.id}/client-secret`, token)).clientSecret;
  }
  app.setCredentials(record.clientId, clientSecret);
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
