/**
 * The wrapper of the platform's own JSON areas, /merchant, /review, /developer and /auth (decision
 * 025): the same operation declarations as the App API (core/operations.server.ts), called by a
 * signed-in account with a Bearer JWT (contract 1), or, for /auth/login and /auth/register, by
 * anyone without a token (caller `ANYONE`). Answers in order: 405 (method), 401/403 (token and
 * role: the one guard, `requireApiAccount`; skipped for `ANYONE`), 400/413 (the declared
 * parameters and body), then the handler.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { declaredRoute, listedOf, operationsOf, type Operations } from "../core/operations.server";
import { requireApiAccount, type UserContext } from "../accounts/session.server";
import type { Role } from "../accounts/accounts.server";

/** Who calls a platform route: an account of one role, or anyone without a token (`ANYONE`: /auth/login, /auth/register). */

export type PlatformCaller = Role | "ANYONE";

/** `user` is the signed-in account; for an `ANYONE` route there is none and it is undefined. */
export type PlatformArgs = (LoaderFunctionArgs | ActionFunctionArgs) & { context: PlatformContext; user: UserContext };

/** Declares one operation of a platform JSON area; the handler's inputs are typed by the declaration's schemas. */
export const operation = operationsOf<PlatformArgs>();

/** A list handler: `listed(({ context, user, page }) => rows of one page, serialize)`. */
export const listed = listedOf<PlatformArgs>();

/** A route module of /merchant, /review, /developer or /auth: its OpenAPI path, the role that calls it (or `ANYONE`), and one declared operation per method. */
export function platformRoute(path: string, role: PlatformCaller, operations: Operations) {
  return declaredRoute(path, role, operations, {
    enter: async () => ({ entered: null, headers: {} }),
    admit: async (_op, args) => ({
      user:
        role === "ANYONE"
          ? (undefined as unknown as UserContext)
          : await requireApiAccount(args.request, args.context, role),
    }),
    nullForUndefined: true,
  });
}
