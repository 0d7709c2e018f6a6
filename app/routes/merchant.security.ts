import { z } from "zod";
import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { businessSecurity, setRequireSecondFactor } from "~/platform/accounts/business-security.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { MerchantSecurity } from "~/platform/platform-api/security-schemas";

/** Contract 18: the owner's rule that every member signs in with a second factor. */
export const { loader, action, declared } = platformRoute("/merchant/security", merchant("settings"), {
  GET: operation({
    summary: "The business's sign-in rule",
    answer: { status: 200, schema: MerchantSecurity },
    errors: [403],
    handler: ({ context, user }) => businessSecurity(context.db, user.member!.businessId),
  }),
  PUT: operation({
    summary: "Require (or stop requiring) a second factor of every member; the owner only, who must have one",
    body: z.object({ requireSecondFactor: z.boolean() }).meta({ id: "MerchantSecurityInput" }),
    answer: { status: 200, schema: MerchantSecurity },
    errors: [400, 403, 409, 413],
    handler: ({ request, context, user, body }) =>
      setRequireSecondFactor(context.db, user.member!, { ...body, ip: clientAddress(request) }),
  }),
});
