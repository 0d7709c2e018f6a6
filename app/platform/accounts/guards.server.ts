/**
 * The page guards: one per kind of caller, each returning what the page needs or throwing the
 * Response the page answers instead (sign in and come back, 403, or the 404 page). Page routes call
 * these and nothing else to find out who is asking (Epic Stack's `requireUserWithPermission`); the
 * JSON routes keep `requireApiAccount`.
 */
import type { Account, Business } from "../../../db/schema";
import type { PlatformContext } from "../core/context";
import { ApiError } from "../core/http.server";
import { requireUser } from "./session.server";
import {
  appRoleAtLeast,
  may,
  missingAppRoleMessage,
  missingPermissionMessage,
  type AppRole,
  type Member,
  type Permission,
} from "./permissions";

/**
 * `sandbox`: the account is a developer in their own sandbox business (contract 14; decision 036).
 * `member`: who acts for the business and with which permissions (contract 17), the acting account
 * id being what an action is attributed to.
 */
export type MerchantContext = { account: Account; business: Business; sandbox: boolean; member: Member };
export type DeveloperContext = { account: Account; business: Business | null };
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
 *
 * `permission` is what the page needs (contract 17), declared by every admin route beside this
 * call: a member without it gets the 403 page naming it; `null` is a page every member may see (the
 * dashboard, the admin's frame).
 */
export async function requireMerchant(
  request: Request,
  context: PlatformContext,
  permission: Permission | null,
): Promise<MerchantContext> {
  const { account, business, member } = await requireUser(request, context, "MERCHANT");
  if (!business || !member) throw new Response("This account has no business.", { status: 403 });
  if (!may(member, permission)) throw new Response(missingPermissionMessage(permission!), { status: 403 });
  return { account, business, sandbox: account.role === "DEVELOPER", member };
}

/** A signed-in developer, with their sandbox business when they have one. */
export function requireDeveloper(request: Request, context: PlatformContext): Promise<DeveloperContext> {
  return requireUser(request, context, "DEVELOPER");
}

/** Refuses (the 403 page naming the role) a form intent the member's role does not allow. */
export function requireAppRoleFor(role: AppRole, needed: AppRole): void {
  if (!appRoleAtLeast(role, needed)) throw new Response(missingAppRoleMessage(needed), { status: 403 });
}

/** A signed-in reviewer. */
export async function requireReviewer(request: Request, context: PlatformContext): Promise<ReviewerContext> {
  const { account } = await requireUser(request, context, "REVIEWER");
  return { account };
}
