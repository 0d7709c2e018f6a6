import type { Env } from "../core/env.server";
import { parseWith } from "../core/http.server";
import { DEMO_APP_FALLBACK_URL, DEMO_API_PIN, demoAppRecord, type DemoAppSlug } from "./demo-apps";
import { updateAppSchema } from "../apps/apps.server";

/**
 * The technical half of a demo app's listing (decision 062): its URLs on the demo apps server,
 * webhook events, manifest and pricing, as a create body carries them (pricing in stored form),
 * pinned to the API version the demo apps speak.
 */
export function demoAppListing(env: Pick<Env, "demoApps" | "isProduction">, slug: DemoAppSlug) {
  const parsed = parseWith(updateAppSchema(env), demoAppRecord(env.demoApps?.url ?? DEMO_APP_FALLBACK_URL, slug));
  return {
    redirectUrl: parsed.redirectUrl!,
    webhookUrl: parsed.webhookUrl ?? null,
    webhookEvents: parsed.webhookEvents ?? [],
    manifest: parsed.manifest ?? undefined,
    pricing: parsed.pricing,
    apiVersion: DEMO_API_PIN,
  };
}
