/**
 * The page guards: one per kind of caller, each returning what the page needs or throwing the
 * Response the page answers instead (sign in and come back, 403, or the 404 page). Page routes call
 * these and nothing else to find out who is asking (Epic Stack's `requireUserWithPermission`); the
 * JSON routes keep `requireApiAccount`.
 */
import type { Account, App, Business } from "../../../db/schema";
import type { PlatformContext } from "../core/context";
import { ApiError } from "../core/http.server";
import { getDeveloperApp } from "../apps/apps.server";
import { requireUser } from "./session.server";

/** `sandbox`: the account is a developer in their own sandbox business (contract 14; decision 036). */
export type MerchantContext = { account: Account; business: Business; sandbox: boolean };
export type DeveloperContext = { account: Account; business: Business | null };
export type DeveloperAppContext = DeveloperContext & { app: App };
export type ReviewerContext = { account: Account };

/**
 * The 404 page for a domain function's "not found" (ApiError 404); any other error goes on. Use it
 * as `.catch(orNotFound("Order not found"))` on the lookup a page is about.
 */
export const orNotFound =
  (message: string, headers?: HeadersInit) =>
  (e: unknown): never => {
    if (e instanceof ApiError && e.status === 404) throw new Response(message, { status: 404, headers });
    throw e;
  };

/**
 * A signed-in merchant and their business (a merchant account without one is refused, 403), or a
 * developer in their own sandbox business, which has the merchant's admin (contract 14; decision
 * 036). The business is the account's own, never one the request names.
 */
export async function requireMerchant(request: Request, context: PlatformContext): Promise<MerchantContext> {
  const { account, business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  return { account, business, sandbox: account.role === "DEVELOPER" };
}

/** A signed-in developer, with their sandbox business when they have one. */
export function requireDeveloper(request: Request, context: PlatformContext): Promise<DeveloperContext> {
  return requireUser(request, context, "DEVELOPER");
}

/**
 * A signed-in developer and one of their own apps: no app of that id, or another developer's, is
 * the 404 page (the same answer, so an id says nothing about apps one does not own).
 */
export async function requireDeveloperApp(
  request: Request,
  context: PlatformContext,
  appId: string | undefined,
): Promise<DeveloperAppContext> {
  const { account, business } = await requireDeveloper(request, context);
  const app = await getDeveloperApp(context.db, account.id, appId ?? "").catch(orNotFound("App not found"));
  return { account, business, app };
}

/** A signed-in reviewer. */
export async function requireReviewer(request: Request, context: PlatformContext): Promise<ReviewerContext> {
  const { account } = await requireUser(request, context, "REVIEWER");
  return { account };
}
