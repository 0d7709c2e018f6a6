/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/__*"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Server-only code lives in app/platform, db/, storefront/ and jobs/; all of it is bundled.
  watchPaths: ["db/**/*", "storefront/**/*"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    // not yet: single fetch changes how every page's loader data travels (decision 039)
    v3_singleFetch: false,
  },
};
