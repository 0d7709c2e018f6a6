/**
 * @packageDocumentation
 * The SDK for apps of the open app platform: verify webhooks and hook calls, OAuth install
 * helpers, session tokens, a typed App API client. The browser bridge is `@storefront/app-sdk/bridge`.
 */
export * from "./webhooks.ts";
export * from "./events.ts";
export * from "./adapters.ts";
export * from "./oauth.ts";
export * from "./client.ts";
