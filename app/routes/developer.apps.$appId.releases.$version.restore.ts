import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { restoreRelease } from "~/platform/apps/releases.server";
import { ReleaseCreated } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute(
  "/developer/apps/{appId}/releases/{version}/restore",
  "DEVELOPER",
  {
    POST: operation({
      appRole: "ADMIN",
      summary: "Make a new release equal to an earlier one",
      description:
        "The old release's configuration is applied again as a new release (as POST releases would: checked again, 409 while the app is in review); an unknown version is 404.",
      params: z.object({
        appId: z.string().describe("App id"),
        version: z
          .string()
          .regex(/^[1-9]\d{0,8}$/, "must be a release number")
          .transform(Number)
          .describe("The release's number"),
      }),
      answer: { status: 201, schema: ReleaseCreated },
      errors: [400, 404, 409],
      handler: async ({ context, user, params }) =>
        json(await restoreRelease(context.db, context.env, user.account.id, params.appId, params.version), 201),
    }),
  },
);
