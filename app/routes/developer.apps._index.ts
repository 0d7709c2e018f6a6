import { json } from "~/platform/core/http.server";
import { listed, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { AppCreateBody, checkAppUrls, createApp, listDeveloperApps, serializeApp } from "~/platform/apps/apps.server";
import { AppCreated, AppRecordList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps", "DEVELOPER", {
  GET: operation({
    summary: "The developer's own apps, newest first",
    ...paged(AppRecordList, { limit: 50, max: 100 }),
    handler: listed(({ context, user, page }) => listDeveloperApps(context.db, user.account.id, page), serializeApp),
  }),
  POST: operation({
    summary: "Create an app (a draft); the answer shows its client secret once",
    description: "In production every URL must be https (checked after the schema, 400 naming the field).",
    body: AppCreateBody,
    answer: { status: 201, schema: AppCreated },
    errors: [400, 409, 413],
    handler: async ({ context, user, body }) => {
      checkAppUrls(context.env, body);
      const { app, clientSecret } = await createApp(context.db, context.env, user.account.id, body);
      return json({ ...serializeApp(app), clientSecret }, 201);
    },
  }),
});
