/**
 * The one wrapper of every App API and /webhooks route: installation token -> installation,
 * rate limit (counted in the database), scope check, the request validated from the operation's
 * declaration (core/operations.server.ts), the X-RateLimit headers on every answer, and the
 * contract's error body.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError, errorResponse, toErrorResponse } from "../core/http.server";
import { now } from "../core/clock.server";
import { authenticateInstallation, type AppCaller } from "../installs/installs.server";
import type { Scope } from "../apps/catalog";
import { declaredRoute, listedOf, operationsOf, type Operations } from "../core/operations.server";

export type AppApiArgs = (LoaderFunctionArgs | ActionFunctionArgs) & { caller: AppCaller; context: PlatformContext };

const WINDOW_MS = 60_000;

/** The installation's current fixed one-minute window, and the X-RateLimit headers after `hits` requests in it. */
export function rateWindow(limit: number) {
  const t = now().getTime();
  const start = new Date(t - (t % WINDOW_MS));
  return {
    start,
    verdict(hits: number) {
      const headers = {
        "X-RateLimit-Limit": String(limit),
        "X-RateLimit-Remaining": String(Math.max(0, limit - hits)),
        "X-RateLimit-Reset": String(Math.ceil((start.getTime() + WINDOW_MS) / 1000)),
      };
      const retryAfter = Math.max(1, Math.ceil((start.getTime() + WINDOW_MS - t) / 1000));
      return { allowed: hits <= limit, headers, retryAfter };
    },
  };
}

/**
 * Declares one operation of the App API or /webhooks (decision 025). The generics are inferred
 * from the declaration, so that the handler's `params`, `query`, `headers`, `body` and `page` are
 * typed by their schemas.
 */
export const operation = operationsOf<AppApiArgs, { scope?: Scope }>();

/** A list handler: `listed(({ context, caller, page }) => rows of one page, serialize)`. */
export const listed = listedOf<AppApiArgs>();

/**
 * A route module of the App API or /webhooks: its OpenAPI path (the route's own path with `{name}`
 * for each `$name`) and one declared operation per method. Answers in order: 401 (token), 429
 * (rate limit), 405 (method), 403 (scope), 400/413 (the declared parameters and body), then the
 * handler; every answer after the token's carries the X-RateLimit headers.
 */
export function appApiRoute(path: string, operations: Operations) {
  return declaredRoute(path, "app", operations, {
    async enter({ request, context }) {
      const window = rateWindow(context.env.appApiRateLimit);
      let caller: AppCaller & { hits: number };
      try {
        // the token's installation and this request counted in its window: one statement
        caller = await authenticateInstallation(context.db, request.headers.get("Authorization"), window.start);
      } catch (e) {
        return toErrorResponse(e);
      }
      const rate = window.verdict(caller.hits);
      if (!rate.allowed)
        return errorResponse(429, `Rate limit of ${context.env.appApiRateLimit} requests per minute exceeded`, {
          ...rate.headers,
          "Retry-After": String(rate.retryAfter),
        });
      return { entered: caller, headers: rate.headers };
    },
    async admit(op, { context }, caller) {
      if (op.scope && !caller.installation.scopes.includes(op.scope as Scope))
        throw new ApiError(403, `This call needs the ${op.scope} scope, which the installation has not been granted`);
      return { caller, context };
    },
  });
}
