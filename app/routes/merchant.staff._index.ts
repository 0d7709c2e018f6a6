import { clientAddress } from "~/platform/core/client-address.server";
import { listed, merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { json } from "~/platform/core/http.server";
import { inviteStaff, inviteStaffSchema, listStaff, serializeStaff } from "~/platform/teams/staff.server";
import { StaffList, StaffMember } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/staff", merchant("staff"), {
  GET: operation({
    summary: "The business's staff: the owner, the members and the pending invitations",
    ...paged(StaffList, { limit: 50, max: 100 }),
    handler: listed(({ context, user, page }) => listStaff(context.db, user.member!.businessId, page), serializeStaff),
  }),
  POST: operation({
    summary: "Invite a person by e-mail with a set of permissions (an invitation e-mail, 7 days, single use)",
    description:
      "An address that already has an account is refused (409) with a message saying so; one pending invitation per address (a second is 409).",
    body: inviteStaffSchema.meta({ id: "StaffInvitation" }),
    answer: { status: 201, schema: StaffMember },
    errors: [400, 409, 413],
    handler: async ({ request, context, user, body }) => {
      const entry = await inviteStaff(context.db, context.env, { ...user.member!, name: user.account.name }, body, {
        account: user.account,
        ip: clientAddress(request),
      });
      return json(serializeStaff(entry), 201);
    },
  }),
});
