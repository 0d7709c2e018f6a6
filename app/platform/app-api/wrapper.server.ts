/**
 * The one wrapper of every App API and /webhooks route: installation token -> installation,
 * rate limit (counted in the database), scope check, the request validated from the operation's
 * declaration (core/operations.server.ts), the X-RateLimit headers on every answer, and the
 * contract's error body.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError, errorResponse, json, toErrorResponse } from "../core/http.server";
import { enterBusinessClock, now } from "../core/clock.server";
import { authenticateInstallation } from "../installs/installs.server";
import type { AppCaller } from "../apps/caller";
import type { Scope } from "../shapes/app-catalog";
import {
  declaredRoute,
  listedOf,
  operationId,
  renderedOperationsOf,
  type Method,
  type Operations,
} from "../core/operations.server";
import { currentVersion, supportedList, versionIndex, versionState } from "../versions/registry";
import { countCall } from "../versions/usage.server";
import { deprecationHeaders } from "../versions/headers.server";
import { VERSIONING } from "../versions/changes";
import { noteAppApiRequest } from "../devtools/logs.server";

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
 * typed by their schemas, and its result by the declared answer schema: the handler gives the
 * answer's value in the newest shape and the wrapper renders it (status, API version; decision 046),
 * so a handler cannot give a ready Response.
 */
export const operation = renderedOperationsOf<AppApiArgs, { scope?: Scope }>();

/** A list handler: `listed(({ context, caller, page }) => rows of one page, serialize)`. */
export const listed = listedOf<AppApiArgs, true>();

/**
 * A route module of the App API or /webhooks: its OpenAPI path (the route's own path with `{name}`
 * for each `$name`) and one declared operation per method. Answers in order: 401 (token), 429
 * (rate limit), 405 (method), 403 (scope), 400/413 (the declared parameters and body), then the
 * handler; every answer after the token's carries the X-RateLimit headers.
 */
export function appApiRoute(path: string, operations: Operations) {
  const ids = new Map(Object.entries(operations).map(([m, op]) => [op, operationId(m as Method, path)]));
  const route = declaredRoute<Entered>(path, "app", operations, {
    async enter({ request, context }) {
      const asked = request.headers.get("Api-Version");
      // answers before the version is settled (401, 429, 400/410 for the version) name the asked version when it is usable, else the current one
      const early = () => ({ "Api-Version": earlyVersion(request) });
      const window = rateWindow(context.env.appApiRateLimit);
      let caller: AppCaller & { hits: number };
      try {
        // the token's installation and this request counted in its window: one statement
        caller = await authenticateInstallation(context.db, request.headers.get("Authorization"), window.start);
      } catch (e) {
        return withVersion(toErrorResponse(e), early());
      }
      // the developer's live logs: the request is noted once answered (its installation is known from here)
      seen.set(request, { caller, version: asked ?? caller.app.apiVersion });
      // a sandbox's installation is answered as of the sandbox's date (its own clock, contract 19)
      enterBusinessClock(caller.business);
      const t = now();
      const rate = window.verdict(caller.hits);
      if (!rate.allowed)
        return errorResponse(429, `Rate limit of ${context.env.appApiRateLimit} requests per minute exceeded`, {
          ...rate.headers,
          ...early(),
          "Retry-After": String(rate.retryAfter),
        });
      // the version: the request's Api-Version, else the app's pin (decision 041)
      const version = asked ?? caller.app.apiVersion;
      const state = versionState(version, t);
      if (!state)
        return errorResponse(
          400,
          `Unknown API version ${JSON.stringify(version)}${asked ? " in the Api-Version header" : ""}; supported: ${supportedList(t)}`,
          { ...rate.headers, ...early() },
        );
      if (state.status === "SUNSET")
        return errorResponse(
          410,
          `API version ${version} ${asked ? "(Api-Version header)" : "(the app's pinned version)"} passed its sunset on ${state.sunsetAt!.toISOString().slice(0, 10)}; supported: ${supportedList(t)}. Change the app's apiVersion or send Api-Version.`,
          { ...rate.headers, ...early() },
        );
      return {
        entered: { caller, version },
        headers: { ...rate.headers, "Api-Version": version, ...deprecationHeaders(state, context.env.publicUrl) },
      };
    },
    async admit(op, { context }, { caller, version }) {
      if (op.since && versionIndex(version) < versionIndex(op.since))
        throw new ApiError(
          404,
          `This operation exists from API version ${op.since} on; this request is in ${version} (send Api-Version: ${op.since} or later, or change the app's apiVersion)`,
        );
      countCall(context.db, caller.app.id, version, ids.get(op) ?? "unknown");
      if (op.scope && !caller.installation.scopes.includes(op.scope as Scope))
        throw new ApiError(403, `This call needs the ${op.scope} scope, which the installation has not been granted`);
      return { caller, context };
    },
    // the lists' cursors are signed with the list's identity (contract 6, decision 067)
    cursorKey: ({ context }) => context.env.sessionSecret,
    // what the app sends in its version, up to the newest shape by the body's schema (version-changes.ts)
    bodyUp: (op, raw, { version }) => VERSIONING.request(op.body, raw, version),
    // every answer: the handler's value in the newest shape, taken down to the request's version by
    // the answer's schema, with the declared status; an answer without a schema has no body (204)
    render: (op, result, { version }) =>
      op.answer.schema
        ? json(
            result === undefined ? undefined : VERSIONING.answer(op.answer.schema, result, version),
            op.answer.status,
          )
        : new Response(null, { status: op.answer.status }),
  });
  // each answered request of an installation goes to its app's live logs (contract 19): a push in
  // memory, written in batches (devtools/logs.server.ts)
  const logged = async (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const started = performance.now();
    const response = await route.loader(args);
    const who = seen.get(args.request);
    if (who) {
      const url = new URL(args.request.url);
      noteAppApiRequest(args.context.db, {
        appId: who.caller.app.id,
        installationId: who.caller.installation.id,
        businessId: who.caller.installation.businessId,
        method: args.request.method,
        path: url.pathname + url.search,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
        apiVersion: response.headers.get("Api-Version") ?? who.version,
      });
    }
    return response;
  };
  return { loader: logged, action: logged, declared: route.declared };
}

/** The installation of each request the App API authenticated, for its log line. */
const seen = new WeakMap<Request, { caller: AppCaller; version: string }>();

type Entered = { caller: AppCaller & { hits: number }; version: string };

function withVersion(response: Response, headers: Record<string, string>) {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/** The version an answer made before the token is read names: the asked one when usable, else the current one. */
function earlyVersion(request: Request) {
  const t = now();
  const asked = request.headers.get("Api-Version");
  const state = asked ? versionState(asked, t) : undefined;
  return state && state.status !== "SUNSET" ? state.version : currentVersion(t);
}

/** The App API's and /webhooks' splat routes: the contract's 404, naming its version like every App API answer. */
export const appApiNotFound = {
  loader: ({ request }: LoaderFunctionArgs) =>
    errorResponse(404, `No route matches ${request.method} ${new URL(request.url).pathname}`, {
      "Api-Version": earlyVersion(request),
    }),
  action: ({ request }: ActionFunctionArgs) =>
    errorResponse(404, `No route matches ${request.method} ${new URL(request.url).pathname}`, {
      "Api-Version": earlyVersion(request),
    }),
};
