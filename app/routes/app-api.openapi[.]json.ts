import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, json } from "~/platform/core/http.server";
import { now } from "~/platform/core/clock.server";
import { currentVersion, supportedList, versionState } from "~/platform/versions/registry";
import { appApiDocument } from "~/operations.server";

/**
 * The OpenAPI 3.1 document of the App API and /webhooks (public), collected from the route modules'
 * declarations: the current API version, or `?version=` any supported one (contract 12).
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => {
  const t = now();
  const asked = new URL(request.url).searchParams.get("version");
  const version = asked ?? currentVersion(t);
  const state = versionState(version, t);
  if (!state || state.status === "SUNSET")
    return errorResponse(
      400,
      `version: ${JSON.stringify(version)} is not a supported API version; supported: ${supportedList(t)}`,
      {
        "Access-Control-Allow-Origin": "*",
      },
    );
  return json(appApiDocument(context.env.publicUrl, version), 200, {
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
    "Api-Version": version,
  });
};
