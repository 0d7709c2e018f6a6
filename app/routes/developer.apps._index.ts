import { apiRoute, json, paginated, parsePagination, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { createApp, createAppSchema, listDeveloperApps, serializeApp } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const page = parsePagination(new URL(request.url));
    const { rows, total } = await listDeveloperApps(context.db, account.id, page);
    return paginated(rows.map(serializeApp), total, page);
  },
  POST: async ({ request, context }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const input = parseWith(createAppSchema(context.env), await readJson(request));
    const { app, clientSecret } = await createApp(context.db, context.env, account.id, input);
    return json({ ...serializeApp(app), clientSecret }, 201);
  },
});
