/**
 * The wrapper of the platform's own JSON areas, /merchant, /review, /developer and /auth (decision
 * 025): the same operation declarations as the App API (core/operations.server.ts), called by a
 * signed-in account with a Bearer JWT (contract 1), or, for /auth/login and /auth/register, by
 * anyone without a token (caller `ANYONE`). Answers in order: 405 (method), 401/403 (token and
 * role: the one guard, `requireApiAccount`; skipped for `ANYONE`), 403 naming the permission a
 * business's member lacks (a /merchant route declares it with its caller, `merchant("pages")`,
 * contract 17), 404/403 for an app the developer is not a member of or whose role is too low (an
 * operation's `appRole`), 400/413 (the declared parameters and body), then the handler.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError } from "../core/http.server";
import { declaredRoute, listedOf, operationsOf, type Operations } from "../core/operations.server";
import { requireApiAccount, type UserContext } from "../accounts/session.server";
import { may, missingPermissionMessage, type AppRole, type Permission } from "../accounts/permissions";
import { requireAppRole } from "../teams/app-members.server";

/**
 * Who calls a platform route: a merchant member with a permission (`merchant(permission)`, null:
 * any member of the business), an account of another role, or anyone without a token (`ANYONE`:
 * /auth/login, /auth/register). A /merchant route cannot be declared without saying which
 * permission it needs.
 */
export type MerchantCaller = { role: "MERCHANT"; permission: Permission | null };
export type PlatformCaller = "DEVELOPER" | "REVIEWER" | "ANYONE" | MerchantCaller;

/** The caller of a /merchant route: a member of the business holding `permission` (null: any member). */
export const merchant = (permission: Permission | null): MerchantCaller => ({ role: "MERCHANT", permission });

/**
 * `user` is the signed-in account (with `member`, its business and permissions, for /merchant);
 * for an `ANYONE` route there is none and it is undefined. `appRole` is the caller's role on the
 * path's app when the operation declares one.
 */
export type PlatformArgs = (LoaderFunctionArgs | ActionFunctionArgs) & {
  context: PlatformContext;
  user: UserContext;
  appRole?: AppRole;
};

/** Declares one operation of a platform JSON area; the handler's inputs are typed by the declaration's schemas. */
export const operation = operationsOf<PlatformArgs>();

/** A list handler: `listed(({ context, user, page }) => rows of one page, serialize)`. */
export const listed = listedOf<PlatformArgs>();

/** A route module of /merchant, /review, /developer or /auth: its OpenAPI path, who calls it, and one declared operation per method. */
export function platformRoute(path: string, caller: PlatformCaller, operations: Operations) {
  const role = typeof caller === "object" ? caller.role : caller;
  return declaredRoute(
    path,
    role,
    operations,
    {
      enter: async () => ({ entered: null, headers: {} }),
      admit: async (op, args) => {
        if (role === "ANYONE") return { user: undefined as unknown as UserContext };
        const user = await requireApiAccount(args.request, args.context, role);
        if (typeof caller === "object") {
          if (!user.member) throw new ApiError(403, "This account has no business");
          if (!may(user.member, caller.permission))
            throw new ApiError(403, missingPermissionMessage(caller.permission!));
        }
        if (!op.appRole) return { user };
        const appRole = await requireAppRole(args.context.db, user.account.id, args.params.appId ?? "", op.appRole);
        return { user, appRole };
      },
      nullForUndefined: true,
    },
    typeof caller === "object" ? caller.permission : undefined,
  );
}
