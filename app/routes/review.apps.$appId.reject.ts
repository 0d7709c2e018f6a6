import { apiRoute, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { rejectApp, rejectSchema } from "~/platform/apps/review.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    await requireApiAccount(request, context, "REVIEWER");
    const { notes } = parseWith(rejectSchema, await readJson(request, { optional: true }));
    return serializeApp(await rejectApp(context.db, params.appId!, notes));
  },
});
