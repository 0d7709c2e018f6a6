import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, json } from "~/platform/core/http.server";
import { changelogPath, changesBetween, isKnownVersion } from "~/platform/versions/registry";

/**
 * `GET /app-api/versions/changes?from=<version>&to=<version>` (public): the changes a move between
 * two versions crosses, each with its sentence and changelog address; what the portal and
 * `storefront-apps version --set` show before an app's pin moves.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => {
  const search = new URL(request.url).searchParams;
  const from = search.get("from") ?? "";
  const to = search.get("to") ?? "";
  for (const [name, v] of [
    ["from", from],
    ["to", to],
  ])
    if (!isKnownVersion(v)) return errorResponse(400, `${name}: ${JSON.stringify(v)} is not an API version`);
  return json(
    {
      from,
      to,
      direction: from <= to ? "upgrade" : "downgrade",
      changes: changesBetween(from, to).map(({ version, change }) => ({
        version,
        anchor: change.anchor,
        summary: change.summary,
        url: `${context.env.publicUrl}${changelogPath(version, change.anchor)}`,
      })),
    },
    200,
    { "Access-Control-Allow-Origin": "*" },
  );
};
