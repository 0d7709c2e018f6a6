import { clientAddress } from "~/platform/core/client-address.server";
import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy, pathParams } from "~/platform/core/operations.server";
import { json } from "~/platform/core/http.server";
import { removeStaff, serializeStaff, updateStaff, updateStaffSchema } from "~/platform/teams/staff.server";
import { StaffMember } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/staff/{id}", merchant("staff"), {
  PATCH: operation({
    summary: "Change a member's (or a pending invitation's) permissions; in force at once",
    ...oneBy("id", "A member's account id or an invitation's id", StaffMember, { errors: [400, 403, 404, 413] }),
    body: updateStaffSchema.meta({ id: "StaffUpdate" }),
    handler: async ({ request, context, user, params, body }) =>
      serializeStaff(
        await updateStaff(context.db, user.member!.businessId, params.id, body.permissions, {
          account: user.account,
          ip: clientAddress(request),
        }),
      ),
  }),
  DELETE: operation({
    summary: "Withdraw an invitation, or remove a member: their sessions and tokens answer 401 at once",
    params: pathParams({ id: "A member's account id or an invitation's id" }),
    answer: { status: 204, description: "Removed" },
    errors: [403, 404],
    handler: async ({ request, context, user, params }) => {
      await removeStaff(context.db, user.member!.businessId, params.id, {
        account: user.account,
        ip: clientAddress(request),
      });
      return json(undefined, 204);
    },
  }),
});
