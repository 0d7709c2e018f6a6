/**
 * The wrapper of the platform's own JSON areas, /merchant, /review, /developer and /auth (decision
 * 025): the same operation declarations as the App API (core/operations.server.ts), called by a
 * signed-in account with a Bearer JWT (contract 1), or, for /auth/login and /auth/register, by
 * anyone without a token (caller `ANYONE`). Answers in order: 405 (method), 401/403 (token and
 * role: the one guard, `requireApiAccount`; skipped for `ANYONE`), 400/413 (the declared
 * parameters and body), then the handler.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { PlatformContext } from "../core/context";
import { errorResponse, json, toErrorResponse } from "../core/http.server";
import {
  readInput,
  type DeclaredRoute,
  type Method,
  type OperationInput,
  type OperationSpec,
  type PageLimits,
} from "../core/operations.server";
import { requireApiAccount, type UserContext } from "../accounts/session.server";
import type { Role } from "../accounts/accounts.server";

/** Who calls a platform route: an account of one role, or anyone without a token (`ANYONE`: /auth/login, /auth/register). */
export type PlatformCaller = Role | "ANYONE";

/** `user` is the signed-in account; for an `ANYONE` route there is none and it is undefined. */
export type PlatformHandlerArgs<P, Q, H, B, G> = Omit<LoaderFunctionArgs | ActionFunctionArgs, "params"> & {
  context: PlatformContext;
  user: UserContext;
} & OperationInput<P, Q, H, B, G>;
export type PlatformOperation = OperationSpec & { handler: (args: any) => Promise<Response | object | null> };

/** Declares one operation of a platform JSON area; the handler's inputs are typed by the declaration's schemas. */
export function operation<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  G extends PageLimits | undefined = undefined,
>(
  declared: Omit<OperationSpec<P, Q, H, B>, "scope" | "page"> & {
    page?: G;
    handler: (args: PlatformHandlerArgs<P, Q, H, B, G>) => Promise<Response | object | null>;
  },
): PlatformOperation {
  return declared as unknown as PlatformOperation;
}

/** A route module of /merchant, /review, /developer or /auth: its OpenAPI path, the role that calls it (or `ANYONE`), and one declared operation per method. */
export function platformRoute(
  path: string,
  role: PlatformCaller,
  operations: Partial<Record<Method, PlatformOperation>>,
) {
  const allowed = Object.keys(operations).join(", ");
  const dispatch = async (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const method = args.request.method.toUpperCase() as Method;
    const op = operations[method] ?? (method === ("HEAD" as Method) ? operations.GET : undefined);
    if (!op) return errorResponse(405, `Method ${method} not allowed; use ${allowed}`, { Allow: allowed });
    try {
      const user =
        role === "ANYONE"
          ? (undefined as unknown as UserContext)
          : await requireApiAccount(args.request, args.context, role);
      const input = await readInput(op, args.request, args.params);
      const result = await op.handler({ ...args, ...input, user });
      return result instanceof Response ? result : json(result ?? null);
    } catch (e) {
      return toErrorResponse(e);
    }
  };
  const declared: DeclaredRoute = { path, caller: role, operations };
  return { loader: dispatch, action: dispatch, declared };
}
