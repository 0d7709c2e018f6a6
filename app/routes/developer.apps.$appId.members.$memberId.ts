import { clientAddress } from "~/platform/core/client-address.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { pathParams } from "~/platform/core/operations.server";
import { json } from "~/platform/core/http.server";
import {
  removeAppMember,
  serializeAppMember,
  updateAppMember,
  updateAppMemberSchema,
} from "~/platform/teams/app-members.server";
import { AppMember } from "~/platform/platform-api/schemas";

const params = pathParams({ appId: "The app's id", memberId: "A member's account id or an invitation's id" });

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/members/{memberId}", "DEVELOPER", {
  PATCH: operation({
    summary: "Change a member's (or a pending invitation's) role (OWNER or ADMIN); the OWNER cannot be changed",
    appRole: "ADMIN",
    params,
    body: updateAppMemberSchema.meta({ id: "AppMemberUpdate" }),
    answer: { status: 200, schema: AppMember },
    errors: [400, 403, 404, 413],
    handler: async ({ request, context, user, params: p, body }) =>
      serializeAppMember(
        await updateAppMember(context.db, p.appId, p.memberId, body.role, {
          account: user.account,
          ip: clientAddress(request),
        }),
      ),
  }),
  DELETE: operation({
    summary: "Withdraw an invitation or remove a member (OWNER or ADMIN); the OWNER cannot be removed",
    appRole: "ADMIN",
    params,
    answer: { status: 204, description: "Removed" },
    errors: [403, 404],
    handler: async ({ request, context, user, params: p }) => {
      await removeAppMember(context.db, p.appId, p.memberId, { account: user.account, ip: clientAddress(request) });
      return json(undefined, 204);
    },
  }),
});
