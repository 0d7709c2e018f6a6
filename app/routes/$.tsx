import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "~/platform/core/http.server";

/** JSON areas answer an unknown path with the contract's 404 body; pages show the 404 page. */
const JSON_PREFIXES = ["/app-api", "/webhooks", "/developer", "/merchant", "/review/", "/auth", "/oauth/token"];

function notFound({ request }: LoaderFunctionArgs) {
  const path = new URL(request.url).pathname;
  if (JSON_PREFIXES.some((p) => path === p || path.startsWith(p.endsWith("/") ? p : p + "/")) || path === "/review")
    return errorResponse(404, `No route matches ${request.method} ${path}`);
  throw new Response("We could not find that page.", { status: 404 });
}

export const loader = notFound;
export const action = notFound;
