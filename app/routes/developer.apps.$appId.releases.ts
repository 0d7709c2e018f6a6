import { z } from "zod";
import { json, paginated } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { createRelease, listReleases, ReleaseConfigInput, serializeRelease } from "~/platform/apps/releases.server";
import { AppReleaseList, ReleaseCreated } from "~/platform/platform-api/schemas";

const params = z.object({ appId: z.string().describe("App id (another developer's app is 404)") });

/** Releases (contract 19, decision 077): `storefront-apps deploy` and the app's history of configurations. */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/releases", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary: "The app's releases, newest first, each with its diff",
    params,
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: AppReleaseList },
    errors: [400, 404],
    handler: async ({ context, user, params, page }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      const { rows, total } = await listReleases(context.db, app.id, page);
      return paginated(rows.map(serializeRelease), total, page);
    },
  }),
  POST: operation({
    appRole: "ADMIN",
    summary: "Apply the app's whole configuration document as a new release (storefront-apps deploy)",
    description:
      "The document is validated whole first (400 naming the field; nothing applied). A draft app changes at once. An approved app's listing, URLs, events, API version and manifest change at once; when its scopes or pricing differ from the approved ones the release becomes its update in review (status IN_REVIEW), as a submit would. An app in review answers 409. With dryRun=true only the diff is answered.",
    params,
    query: z.object({ dryRun: z.string().optional().describe("`true`: validate and diff only, change nothing") }),
    body: z
      .object({
        config: ReleaseConfigInput.describe("the configuration document (storefront-apps.json)"),
        message: z.string().trim().max(5000, "must be at most 5,000 characters").optional(),
      })
      .strict()
      .meta({ id: "ReleaseRequest" }),
    answer: { status: 201, schema: ReleaseCreated },
    errors: [400, 404, 409, 413],
    handler: async ({ context, user, params, query, body }) => {
      const dryRun = query.dryRun === "true";
      const result = await createRelease(context.db, context.env, user.account.id, params.appId, body, { dryRun });
      return json(result, dryRun ? 200 : 201);
    },
  }),
});
