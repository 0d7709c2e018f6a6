import { clientAddress } from "~/platform/core/client-address.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged, pathParams } from "~/platform/core/operations.server";
import { json, paginated } from "~/platform/core/http.server";
import {
  inviteAppMember,
  inviteAppMemberSchema,
  listAppMembers,
  serializeAppMember,
} from "~/platform/teams/app-members.server";
import { AppMember, AppMemberList } from "~/platform/platform-api/schemas";

const params = pathParams({ appId: "The app's id" });

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/members", "DEVELOPER", {
  GET: operation({
    summary: "The app's members (the OWNER first) and pending invitations",
    appRole: "VIEWER",
    params,
    ...paged(AppMemberList, { limit: 50, max: 100 }),
    handler: async ({ context, params: p, page }) => {
      const { rows, total } = await listAppMembers(context.db, p.appId, page);
      return paginated(rows.map(serializeAppMember), total, page);
    },
  }),
  POST: operation({
    summary: "Invite a developer as ADMIN, DEVELOPER or VIEWER (OWNER or ADMIN)",
    appRole: "ADMIN",
    params,
    body: inviteAppMemberSchema.meta({ id: "AppMemberInvitation" }),
    answer: { status: 201, schema: AppMember },
    errors: [400, 403, 404, 409, 413],
    handler: async ({ request, context, user, params: p, body }) =>
      json(
        serializeAppMember(
          await inviteAppMember(context.db, context.env, user.account, p.appId, body, clientAddress(request)),
        ),
        201,
      ),
  }),
});
