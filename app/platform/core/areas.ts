/**
 * The two origins (contract section 10, docs/decisions/013-two-origins.md): storefront pages live on
 * STOREFRONT_URL, every other page on PUBLIC_URL, and the JSON APIs and static assets answer on both.
 * Shared by the server (routing, cookies, headers) and the browser (which header to show).
 */
export type Area = "storefront" | "platform" | "shared";

export const isStorefrontPath = (path: string) => path === "/s" || path.startsWith("/s/");
/** Merchants' uploaded images: served on the storefront origin only (decision 060), never beside the platform's session. */
export const isFilePath = (path: string) => path.startsWith("/files/");

/** The JSON areas (Bearer-authenticated resource routes, no cookies). */
export const JSON_PREFIXES = ["/app-api", "/webhooks", "/developer", "/merchant", "/review", "/auth", "/oauth/token"];
/**
 * Resource routes outside the JSON areas answered the same direct way (json-routes.server.ts), so
 * that their downloads stream at the client's pace: the orders export's status and its file.
 */
export const DOWNLOAD_PREFIXES = ["/admin/orders/exports"];
export const isJsonPath = (path: string) => JSON_PREFIXES.some((p) => path === p || path.startsWith(p + "/"));

/** Served on both origins: the JSON APIs, the health check, scripts, styles and images, Remix's route manifest. */
const SHARED_PREFIXES = ["/build/", "/images/", "/__manifest"];
const SHARED_PATHS = ["/healthz", "/favicon.ico", "/robots.txt"];

export function areaOf(path: string): Area {
  if (isStorefrontPath(path) || isFilePath(path)) return "storefront";
  if (isJsonPath(path) || SHARED_PATHS.includes(path) || SHARED_PREFIXES.some((p) => path.startsWith(p)))
    return "shared";
  return "platform";
}
