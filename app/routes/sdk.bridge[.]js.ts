import { readFileSync } from "node:fs";
import { resolve } from "node:path";

let source: string | null = null;

/**
 * The SDK's browser bridge as an ES module, at a stable URL, for apps without a bundler:
 * `import { createBridge } from "<platform>/sdk/bridge.js"`. Cross-origin module scripts need CORS.
 */
export const loader = () => {
  source ??= readFileSync(resolve("packages/app-sdk/src/bridge.js"), "utf8");
  return new Response(source, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
    },
  });
};
