/**
 * The site builder's live preview (docs/decisions/017-live-preview.md): the admin (PUBLIC_URL) frames
 * a page of the storefront's origin (STOREFRONT_URL), where apps' code runs and the platform's
 * session never goes. What lets that page show a business's unsaved page is a short-lived preview
 * token, an HS256 JWT bound to one business, one page and the merchant who opened the builder:
 *
 * - signed with a key derived from SESSION_SECRET for this use only, so that it can never pass for
 *   a merchant's API token (also signed with SESSION_SECRET), nor the other way round;
 * - `aud` "storefront-preview", `iss` the platform's URL, 5 minutes: it only has to open the preview
 *   once; the draft itself reaches the preview by postMessage from the builder, never by the token.
 */
import { and, eq, or } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts, businesses } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { hmacSha256Hex, signJwt, verifyJwt } from "../core/crypto.server";
import { now } from "../core/clock.server";

export const PREVIEW_TTL_SECONDS = 300;
export const PREVIEW_AUDIENCE = "storefront-preview";

/** A key of its own: HMAC-SHA256(SESSION_SECRET, label), so that no other token of the platform verifies as a preview token. */
const previewKey = (env: Env) => hmacSha256Hex(env.sessionSecret, "storefront-preview-token/v1");
const seconds = () => Math.floor(now().getTime() / 1000);

export type PreviewGrant = { businessId: string; pageSlug: string; accountId: string };

export function signPreviewToken(env: Env, grant: PreviewGrant, ttlSeconds = PREVIEW_TTL_SECONDS): Promise<string> {
  return signJwt(
    {
      iss: env.publicUrl,
      aud: PREVIEW_AUDIENCE,
      businessId: grant.businessId,
      page: grant.pageSlug,
      acc: grant.accountId,
    },
    previewKey(env),
    ttlSeconds,
    seconds(),
  );
}

/** The storefront address of a page's preview, with a fresh token. */
export async function previewUrl(
  env: Env,
  business: { id: string; slug: string },
  pageSlug: string,
  accountId: string,
): Promise<string> {
  const token = await signPreviewToken(env, { businessId: business.id, pageSlug, accountId });
  return `${env.storefrontUrl}/s/${encodeURIComponent(business.slug)}/preview/${encodeURIComponent(pageSlug)}?token=${encodeURIComponent(token)}`;
}

export type PreviewCheck = { ok: true; accountId: string } | { ok: false; status: 401 | 403; message: string };

/**
 * Checks a token for the preview of `pageSlug` of `businessId`: 401 when there is none, or it is
 * malformed, tampered with, expired or not a preview token; 403 when it is valid but for another
 * business or page.
 */
export async function verifyPreviewToken(
  env: Env,
  token: string | null | undefined,
  target: { businessId: string; pageSlug: string },
): Promise<PreviewCheck> {
  const expired: PreviewCheck = {
    ok: false,
    status: 401,
    message: "This preview link is missing, invalid or has expired. Open the page in the site builder again.",
  };
  if (!token || token.length > 2000) return expired;
  const claims = await verifyJwt(token, previewKey(env), seconds(), PREVIEW_AUDIENCE);
  if (
    !claims ||
    claims.iss !== env.publicUrl ||
    typeof claims.businessId !== "string" ||
    typeof claims.page !== "string" ||
    typeof claims.acc !== "string"
  )
    return expired;
  if (claims.businessId !== target.businessId || claims.page !== target.pageSlug)
    return { ok: false, status: 403, message: "This preview link is for another page." };
  return { ok: true, accountId: claims.acc };
}

/**
 * The account a preview token names still runs that business: its merchant, or the developer whose
 * sandbox it is (decision 036). An account removed or moved since loses its previews.
 */
export async function previewAccount(db: Db, businessId: string, accountId: string) {
  const [row] = await db
    .select({ account: accounts })
    .from(accounts)
    .innerJoin(businesses, eq(businesses.id, accounts.businessId))
    .where(
      and(
        eq(accounts.id, accountId),
        eq(accounts.businessId, businessId),
        or(eq(accounts.role, "MERCHANT"), and(eq(accounts.role, "DEVELOPER"), eq(businesses.isSandbox, true))),
      ),
    );
  return row?.account ?? null;
}
