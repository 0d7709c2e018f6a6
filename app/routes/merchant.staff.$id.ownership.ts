import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { serializeStaff, transferOwnership } from "~/platform/teams/staff.server";
import { StaffMember } from "~/platform/platform-api/schemas";

/** Decision 069: only the owner may hand over the business, to an active member. */
export const { loader, action, declared } = platformRoute("/merchant/staff/{id}/ownership", merchant("staff"), {
  POST: operation({
    summary:
      "Hand over ownership to an active member (the owner only); the former owner keeps every permission as a member",
    ...oneBy("id", "The member's account id", StaffMember, { errors: [403, 404, 409] }),
    handler: async ({ context, user, params }) =>
      serializeStaff(await transferOwnership(context.db, user.member!, params.id)),
  }),
});
