import { useRouteLoaderData } from "@remix-run/react";

/**
 * The absolute address of a storefront path: the storefront is on an origin of its own
 * (STOREFRONT_URL, decision 013), so links from the platform's pages to it name that origin.
 */
export function useStorefrontUrl(): (path: string) => string {
  const origin = useRouteLoaderData<{ origins?: { storefront: string } }>("root")?.origins?.storefront ?? "";
  return (path: string) => origin + path;
}
