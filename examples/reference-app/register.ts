/**
 * Registers the reference app with a platform as an app of a developer: creates it, or updates its
 * listing, plans and manifest (unless it is in review) and issues a fresh client secret. The listing
 * carries the app's pricing plans (REFERENCE_PRICING), so the app can ask merchants to subscribe.
 */
import { REFERENCE_EVENTS, REFERENCE_PRICING, REFERENCE_SCOPES, referenceManifest } from "./manifest";

export type Registered = { id: string; name: string; clientId: string; clientSecret: string };

export async function registerReferenceApp(
  platformUrl: string,
  developer: { email: string; password: string },
  appUrl: string,
): Promise<Registered> {
  const platform = platformUrl.replace(/\/$/, "");
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
  const { token } = await api("POST", "/auth/login", undefined, developer);
  const listing = {
    name: "Reference App",
    description:
      "The platform's reference app: loyalty banner, badge, chat widget, RefPay payments, free delivery and a welcome discount.",
    category: "loyalty",
    scopes: REFERENCE_SCOPES,
    redirectUrl: `${appUrl}/oauth/callback`,
    webhookUrl: `${appUrl}/webhooks`,
    webhookEvents: REFERENCE_EVENTS,
    // its plans: Starter (free) and Pro (recurring, with a trial and usage); the marketplace shows them
    pricing: REFERENCE_PRICING,
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
      manifest: referenceManifest(appUrl),
    });
    clientSecret = record.clientSecret;
  } else {
    if (record.status !== "PENDING_REVIEW" && !record.updateInReview) {
      await api("PATCH", `/developer/apps/${record.id}`, token, listing);
      await api("PUT", `/developer/apps/${record.id}/manifest`, token, referenceManifest(appUrl));
    }
    clientSecret = (await api("POST", `/developer/apps/${record.id}/client-secret`, token)).clientSecret;
  }
  return { id: record.id, name: record.name, clientId: record.clientId, clientSecret };
}
