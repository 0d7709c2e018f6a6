/**
 * A typed App API client: the types are generated from the platform's OpenAPI document
 * (`/app-api/openapi.json`, see scripts/openapi.ts), the requests made by openapi-fetch.
 *
 *   const api = createAppApiClient({ baseUrl: "https://platform.example", accessToken, apiVersion: "2026-11-27" });
 *   const { data, error } = await api.GET("/app-api/products/{id}", { params: { path: { id } } });
 *   for await (const order of paginate(api, "/app-api/orders")) { ... }
 *
 * A client targets one dated API version (contract 12): it sends `Api-Version` with every request,
 * so answers come in the shape its types describe whatever the app is pinned to; the types of each
 * version are generated (src/generated/<version>.ts). Without `apiVersion` it targets the newest
 * version this SDK knows (LATEST_API_VERSION).
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/app-api.ts";
import { LATEST_API_VERSION, type ApiVersion, type PathsByVersion } from "./generated/versions.ts";

export type { paths, components } from "./generated/app-api.ts";
export { API_VERSIONS, LATEST_API_VERSION, type ApiVersion, type PathsByVersion } from "./generated/versions.ts";
/** A client of one API version (the newest by default). */
export type AppApiClient<V extends ApiVersion = typeof LATEST_API_VERSION> = Client<PathsByVersion[V]>;

export interface AppApiClientOptions<V extends ApiVersion = typeof LATEST_API_VERSION> {
  /** The API version the client targets, sent as `Api-Version` (default: LATEST_API_VERSION). */
  apiVersion?: V;
  /** The platform's origin, e.g. https://platform.example */
  baseUrl: string;
  /** The installation's access token (fbat_...). */
  accessToken: string;
  /** How many times a 429 answer is waited out and retried (default 3). */
  maxRetries?: number;
  /** The longest single wait on Retry-After, in seconds (default 60); a longer one gives the 429 back. */
  maxWaitSeconds?: number;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that waits out 429 answers using Retry-After (seconds or an HTTP date), at most
 * `maxRetries` times and at most `maxWaitSeconds` per wait; then the 429 is returned as is.
 */
export function retryingFetch(
  options: {
    fetch?: typeof fetch;
    maxRetries?: number;
    maxWaitSeconds?: number;
    sleep?: (ms: number) => Promise<void>;
  } = {},
): typeof fetch {
  const inner = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 3;
  const maxWait = (options.maxWaitSeconds ?? 60) * 1000;
  const sleep = options.sleep ?? defaultSleep;
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    for (let attempt = 0; ; attempt++) {
      // a Request's body can be read once: clone it for each attempt
      const request = input instanceof Request ? input.clone() : input;
      const res = await inner(request, init);
      if (res.status !== 429 || attempt >= maxRetries) return res;
      const header = res.headers.get("Retry-After");
      let waitMs = 1000;
      if (header && /^\d+$/.test(header.trim())) waitMs = Number(header) * 1000;
      else if (header && !Number.isNaN(Date.parse(header))) waitMs = Math.max(0, Date.parse(header) - Date.now());
      if (waitMs > maxWait) return res;
      await res.body?.cancel();
      await sleep(waitMs);
    }
  };
}

export function createAppApiClient<V extends ApiVersion = typeof LATEST_API_VERSION>(
  options: AppApiClientOptions<V>,
): AppApiClient<V> {
  return createClient<PathsByVersion[V]>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: {
      Authorization: `Bearer ${options.accessToken}`,
      "Api-Version": options.apiVersion ?? LATEST_API_VERSION,
    },
    fetch: retryingFetch(options),
  });
}

/** Thrown by {@link paginate} when a page cannot be fetched. */
export class AppApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(
      `App API answered ${status}: ${typeof body === "object" && body && "message" in body ? String((body as { message: unknown }).message) : JSON.stringify(body)}`,
    );
    this.name = "AppApiError";
  }
}

type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { "application/json": { data: unknown[]; total: number } } } } };
  }
    ? P
    : never;
}[keyof paths];
type ItemOf<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": { data: (infer I)[] } } } } };
}
  ? I
  : never;

/**
 * Every item of a paginated list, page after page:
 *   for await (const product of paginate(api, "/app-api/products", { limit: 100 })) ...
 */
export async function* paginate<P extends ListPath>(
  client: AppApiClient<ApiVersion>,
  path: P,
  query: Record<string, string | number | boolean | undefined> = {},
): AsyncGenerator<ItemOf<P>> {
  let page = 1;
  let seen = 0;
  for (;;) {
    // the list paths take page/limit query parameters (and path-less); the call is generic here
    const { data, error, response } = await (
      (client as { GET: unknown }).GET as (
        p: string,
        init: unknown,
      ) => Promise<{ data?: { data: ItemOf<P>[]; total: number; limit: number }; error?: unknown; response: Response }>
    )(path, { params: { query: { ...query, page } } });
    if (!data) throw new AppApiError(response.status, error);
    for (const item of data.data) yield item;
    seen += data.data.length;
    if (data.data.length === 0 || seen >= data.total) return;
    page++;
  }
}

type Schemas = import("./generated/app-api.ts").components["schemas"];
/** A subscription or one-time charge as the App API answers it (money as `{amount, currency}` in minor units). */
export type BillingSubscription = Schemas["BillingSubscription"];
/** A usage record, with the subscription's balance and cap after it. */
export type BillingUsageRecord = Schemas["BillingUsageRecord"];

/**
 * Asks the merchant to subscribe to one of the app's plans. Send the merchant to the answer's
 * `confirmationUrl`; after Approve or Decline they come back to `returnUrl` (on one of the app's
 * origins) with `?subscription_id=<id>&status=ACTIVE|DECLINED`.
 */
export async function createSubscription(
  client: AppApiClient,
  input: { planId: string; returnUrl: string },
): Promise<BillingSubscription> {
  const { data, error, response } = await client.POST("/app-api/billing/subscriptions", { body: input });
  if (!data) throw new AppApiError(response.status, error);
  return data;
}

/**
 * Records a usage charge (minor units, e.g. `{amount: 25, currency: "USD"}` for $0.25) under the
 * subscription's cap. `idempotencyKey` (say, the id of what is charged for) makes a retry answer the
 * first record instead of charging twice. Over the cap: an AppApiError with status 409 whose message
 * names the cap and the balance.
 */
export async function recordUsage(
  client: AppApiClient,
  subscriptionId: string,
  input: { description: string; amount: { amount: number; currency: string } },
  idempotencyKey?: string,
): Promise<BillingUsageRecord> {
  const { data, error, response } = await client.POST("/app-api/billing/subscriptions/{id}/usage", {
    params: {
      path: { id: subscriptionId },
      header: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {},
    } as never,
    body: input,
  });
  if (!data) throw new AppApiError(response.status, error);
  return data;
}
