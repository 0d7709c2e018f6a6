/**
 * @packageDocumentation
 * The SDK for apps of the open app platform: verify webhooks and hook calls, OAuth install
 * helpers, session tokens, a typed App API client. The browser bridge is `@storefront/app-sdk/bridge`.
 */
export * from "./webhooks";
export * from "./adapters";
export * from "./oauth";
export * from "./client";
