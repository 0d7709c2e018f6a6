/** POST /webhooks/<id>/test: one signed attempt now, outside the delivery log. */
import { OLDEST_VERSION, renderVersion } from "../versions/registry";
import { VERSIONING } from "../versions/changes";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { apps, installations, type Webhook } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";

import type { EventData } from "../shapes/events";
import { envelope } from "./fanout.server";
import { postOutbound } from "../outbound/outbound.server";
import { relayIfListening } from "../outbound/relay-send.server";
import { DELIVERY_TIMEOUT_MS, headersFor } from "./delivery-rules.server";

/** The version an app's deliveries are rendered in now (its pin, or past the sunset the oldest supported one). */
async function appVersionOf(db: Db, appId: string, t: Date): Promise<string> {
  const [row] = await db.select({ apiVersion: apps.apiVersion }).from(apps).where(eq(apps.id, appId));
  return renderVersion(row?.apiVersion ?? OLDEST_VERSION, t);
}

/** webhook.test's data (contract 7), for the test endpoint and storefront-apps trigger alike. */
export const webhookTestData = (webhookId: string): EventData<"webhook.test"> => ({
  message: "This is a test delivery from Storefront Apps.",
  webhookId,
});

/**
 * POST /webhooks/<id>/test: one attempt now, no retries, even on an inactive registration; not
 * logged as a delivery. On a test installation whose developer runs `storefront-apps listen`, it is
 * relayed to the CLI like any other delivery (decision 027), and the local server's answer is the result.
 */
export async function sendTest(db: Db, env: Env, webhook: Webhook) {
  const id = newId("dlv");
  const apiVersion = await appVersionOf(db, webhook.appId, now());
  const body = envelope({
    id,
    event: "webhook.test",
    timestamp: now(),
    webhookId: webhook.id,
    businessId: webhook.businessId,
    apiVersion,
    data: VERSIONING.event("webhook.test", webhookTestData(webhook.id), apiVersion) as Record<string, unknown>,
  });
  const secret = decrypt(webhook.secretEnc, env.encryptionKey);
  const headers = headersFor({ id, event: "webhook.test", webhookId: webhook.id, apiVersion }, secret, body);
  const [installation] = await db
    .select({ isTestInstall: installations.isTestInstall })
    .from(installations)
    .where(eq(installations.id, webhook.installationId));
  const relayed = await relayIfListening(db, {
    appId: webhook.appId,
    businessId: webhook.businessId,
    isTestInstall: installation?.isTestInstall ?? false,
    kind: "webhook",
    path: "",
    headers,
    body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const result =
    relayed ??
    (await postOutbound(webhook.url, body, headers, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowPrivate: env.outboundAllowPrivate,
    }));
  return {
    success: result.ok,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    ...(result.ok ? {} : { error: result.error }),
  };
}
