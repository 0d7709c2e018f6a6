/**
 * The one wrapper of every App API and /webhooks route: installation token -> installation,
 * rate limit (counted in the database), scope check, the X-RateLimit headers on every answer, and
 * the contract's error body.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError, errorResponse, json, toErrorResponse } from "../core/http.server";
import { now } from "../core/clock.server";
import { authenticateInstallation, type AppCaller } from "../installs/installs.server";
import type { Scope } from "../apps/catalog";

export type AppApiArgs = (LoaderFunctionArgs | ActionFunctionArgs) & { caller: AppCaller; context: PlatformContext };
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type AppApiHandler = { scope?: Scope; handler: (args: AppApiArgs) => Promise<Response | object | null> };

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

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export function appApiRoute(handlers: Partial<Record<Method, AppApiHandler>>) {
  const allowed = Object.keys(handlers).join(", ");
  const dispatch = async (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const { request, context } = args;
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
      return errorResponse(429, `Rate limit of ${context.env.appApiRateLimit} requests per minute exceeded`, { ...rate.headers, "Retry-After": String(rate.retryAfter) });
    const method = request.method.toUpperCase() as Method;
    const route = handlers[method] ?? (method === ("HEAD" as Method) ? handlers.GET : undefined);
    if (!route) return errorResponse(405, `Method ${method} not allowed; use ${allowed}`, { ...rate.headers, Allow: allowed });
    try {
      if (route.scope && !caller.installation.scopes.includes(route.scope))
        throw new ApiError(403, `This call needs the ${route.scope} scope, which the installation has not been granted`);
      const result = await route.handler({ ...args, caller, context } as AppApiArgs);
      return withHeaders(result instanceof Response ? result : json(result), rate.headers);
    } catch (e) {
      return withHeaders(toErrorResponse(e), rate.headers);
    }
  };
  return { loader: dispatch, action: dispatch };
}
