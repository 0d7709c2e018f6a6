import { z } from "zod";
import { apiRoute, json, ApiError } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { answerCall } from "~/platform/devtools/relay.server";

const answer = z.object({ status: z.number().int().min(0).max(999), body: z.string().max(1024 * 1024) });

/** The CLI's answer to a relayed call: the local server's status and body (status 0: it could not be reached). */
export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const app = await getDeveloperApp(context.db, account.id, params.appId!);
    const parsed = answer.safeParse(await request.json().catch(() => null));
    if (!parsed.success) throw new ApiError(400, `${parsed.error.issues[0]?.path.join(".") || "body"}: ${parsed.error.issues[0]?.message}`);
    if (!(await answerCall(context.db, app.id, params.callId!, parsed.data))) throw new ApiError(404, "No such call waiting for an answer (it may have timed out)");
    return json({ answered: true });
  },
});
