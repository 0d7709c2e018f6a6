/**
 * Synchronous hook calls (spec "Hook calls"; contract 8): signed like webhooks, run in parallel per
 * hook point, each bounded by its own timeout, fail-open (a failure is skipped and logged), with a
 * circuit breaker per installation and hook point, answers checked against the hook point's shape.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { hookBreakers, hookCalls, type Business } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";
import { signWebhook } from "../outbound/verify";
import { postOutbound } from "../outbound/outbound.server";
import { relayIfListening } from "../outbound/relay-send.server";
import { USER_AGENT } from "../outbound/outbound.server";
import { hookTargets, type ActiveExtension, type HookRegistry } from "../extensions/registry.server";
import { renderVersion } from "../versions/registry";
import { VERSIONING } from "../versions/changes";
import { HOOK_SCOPES, type HookPoint } from "../shapes/manifest";
import { HOOK_CALLS, type HookAnswer, type HookData } from "../shapes/hooks";

export const BREAKER_THRESHOLD = 5;
export const BREAKER_OPEN_MS = 30_000;

export type { HookAnswer } from "../shapes/hooks";
export type HookResult<P extends HookPoint> = {
  target: ActiveExtension & { priority: number };
  ok: boolean;
  answer?: HookAnswer<P>;
  /** why the call was skipped (ok false): the log's words */
  error?: string;
  statusCode?: number | null;
  durationMs?: number;
};

/** The first money field of an answer in another currency than the order's, if any. */
function foreignCurrency(answer: Record<string, unknown>, currency: string): string | undefined {
  return Object.keys(answer).find((k) => {
    const v = answer[k] as { currency?: unknown } | undefined;
    return typeof v === "object" && v !== null && "currency" in v && v.currency !== currency;
  });
}

export function hookUrl(webhookUrl: string, path: string) {
  return webhookUrl.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}

/** Claims the single probe of an open breaker whose 30 s have passed; false while it stays open. */
async function claimProbe(db: Db, installationId: string, hookPoint: string): Promise<boolean> {
  const t = now();
  const claimed = await db
    .update(hookBreakers)
    .set({ openUntil: new Date(t.getTime() + BREAKER_OPEN_MS) })
    .where(
      and(
        eq(hookBreakers.installationId, installationId),
        eq(hookBreakers.hookPoint, hookPoint),
        sql`(${hookBreakers.openUntil} is null or ${hookBreakers.openUntil} <= ${t.toISOString()}::timestamptz)`,
      ),
    )
    .returning();
  return claimed.length > 0;
}

async function recordFailure(db: Db, installationId: string, hookPoint: string) {
  const openUntil = new Date(now().getTime() + BREAKER_OPEN_MS);
  await db.execute(sql`
    insert into hook_breakers (installation_id, hook_point, consecutive_failures, open_until)
    values (${installationId}, ${hookPoint}, 1, null)
    on conflict (installation_id, hook_point) do update set
      consecutive_failures = hook_breakers.consecutive_failures + 1,
      open_until = case when hook_breakers.consecutive_failures + 1 >= ${BREAKER_THRESHOLD} then ${openUntil.toISOString()}::timestamptz else null end`);
}

/**
 * Calls every active hook of the point (or only one installation's) in parallel; results in
 * priority order. The targets and breaker states come from the checkout's registry (one read per
 * checkout); the call log and breaker bookkeeping start once the answers are in and are handed to
 * `record`, so the checkout goes on while they are written.
 */
export async function callHooks<P extends HookPoint>(
  db: Db,
  env: Env,
  business: Business,
  hookPoint: P,
  data: HookData<P>,
  options: { registry: HookRegistry; record: (work: Promise<void>) => void; onlyInstallationId?: string },
): Promise<HookResult<P>[]> {
  let targets = hookTargets(options.registry.extensions, hookPoint, HOOK_SCOPES[hookPoint]);
  if (options.onlyInstallationId) targets = targets.filter((t) => t.installation.id === options.onlyInstallationId);
  if (targets.length === 0) return [];
  const breakers = options.registry.breakers.filter((b) => b.hookPoint === hookPoint);
  const logs: (typeof hookCalls.$inferInsert)[] = [];
  const outcomes: { installationId: string; ok: boolean; hadFailures: boolean }[] = [];
  const results = await Promise.all(
    targets.map(async (target): Promise<HookResult<P>> => {
      const log = (entry: { success: boolean; statusCode: number | null; durationMs: number; error?: string }) =>
        logs.push({
          id: newId("hkc"),
          appId: target.app.id,
          installationId: target.installation.id,
          businessId: business.id,
          hookPoint,
          ...entry,
          error: entry.error ?? null,
          createdAt: now(),
        });
      const state = breakers.find((b) => b.installationId === target.installation.id);
      if (
        state &&
        state.consecutiveFailures >= BREAKER_THRESHOLD &&
        !(await claimProbe(db, target.installation.id, hookPoint))
      ) {
        log({
          success: false,
          statusCode: null,
          durationMs: 0,
          error: "skipped: circuit breaker open after repeated failures",
        });
        return { target, ok: false, error: "skipped: circuit breaker open after repeated failures" };
      }
      // the call in the app's pinned API version (decision 041); `data` is the newest shape
      const apiVersion = renderVersion(target.app.apiVersion, now());
      const body = JSON.stringify({
        hookPoint,
        businessId: business.id,
        timestamp: now().toISOString(),
        apiVersion,
        data: VERSIONING.hookCall(hookPoint, data, apiVersion),
      });
      const timestamp = Math.floor(now().getTime() / 1000).toString();
      const secret = decrypt(target.installation.webhookSecretEnc, env.encryptionKey);
      const headers = {
        "Api-Version": apiVersion,
        "X-Webhook-Signature": signWebhook(secret, timestamp, body),
        "X-Webhook-Timestamp": timestamp,
        "X-Hook-Point": hookPoint,
        "User-Agent": USER_AGENT,
      };
      // `storefront-apps listen` (decision 023): a test installation's hook call goes to the developer's CLI while it listens
      const result =
        (await relayIfListening(db, {
          appId: target.app.id,
          businessId: business.id,
          isTestInstall: target.installation.isTestInstall,
          sandbox: business.isSandbox,
          kind: "hook",
          path: target.path,
          headers,
          body,
          timeoutMs: target.timeout,
        })) ??
        (await postOutbound(hookUrl(target.app.webhookUrl!, target.path), body, headers, {
          timeoutMs: target.timeout,
          allowPrivate: env.outboundAllowPrivate,
          keepBody: true,
        }));
      let answer: HookAnswer<P> | undefined;
      let error = result.error;
      if (result.ok) {
        try {
          const given = VERSIONING.hookAnswer(hookPoint, JSON.parse(result.body ?? ""), data, apiVersion);
          const parsed = HOOK_CALLS[hookPoint].answer.safeParse(given);
          const foreign = parsed.success ? foreignCurrency(parsed.data, business.currency) : undefined;
          if (parsed.success && !foreign) answer = parsed.data as HookAnswer<P>;
          else if (foreign) error = `answer of the wrong shape: ${foreign}.currency must be ${business.currency}`;
          else
            error = `answer of the wrong shape: ${parsed.error?.issues[0]?.path.join(".")} ${parsed.error?.issues[0]?.message}`;
        } catch {
          error = "answer is not JSON";
        }
      }
      const ok = answer !== undefined;
      log({ success: ok, statusCode: result.statusCode, durationMs: result.durationMs, error: ok ? undefined : error });
      outcomes.push({ installationId: target.installation.id, ok, hadFailures: (state?.consecutiveFailures ?? 0) > 0 });
      return {
        target,
        ok,
        answer,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        ...(ok ? {} : { error }),
      };
    }),
  );
  // one insert for the log of every call
  options.record(
    (async () => {
      await db.insert(hookCalls).values(logs);
      for (const o of outcomes) {
        if (!o.ok) await recordFailure(db, o.installationId, hookPoint);
        else if (o.hadFailures)
          await db
            .update(hookBreakers)
            .set({ consecutiveFailures: 0, openUntil: null })
            .where(and(eq(hookBreakers.installationId, o.installationId), eq(hookBreakers.hookPoint, hookPoint)));
      }
    })(),
  );
  return results;
}
