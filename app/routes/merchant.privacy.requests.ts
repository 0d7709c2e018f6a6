import { json } from "~/platform/core/http.server";
import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { privacyRequestInput, requestPrivacy } from "~/platform/privacy/privacy.server";
import { PrivacyRequestRecord } from "~/platform/platform-api/schemas";

const PrivacyRequestInput = privacyRequestInput.meta({ id: "PrivacyRequestInput" });

export const { loader, action, declared } = platformRoute("/merchant/privacy/requests", merchant("privacy"), {
  POST: operation({
    summary: "A shopper's privacy request: export everything held about an e-mail, or erase it",
    description:
      "Matches the e-mail trimmed and in any case, among this business's orders and reviews only. EXPORT answers the data " +
      "in `export`; ERASE replaces names, e-mails, addresses, phones and notes everywhere they are stored (amounts and " +
      "statuses stay) and is refused (409, naming them) while an order is still open. Apps holding read_orders or " +
      "read_reviews are sent customer.data_request or customer.redact. An unknown e-mail answers empty lists. A repeated " +
      "erasure of an e-mail already erased answers the erasure that did it.",
    body: PrivacyRequestInput,
    answer: { status: 201, schema: PrivacyRequestRecord },
    errors: [400, 409, 413],
    handler: async ({ context, user, body }) => {
      const business = requireBusiness(user);
      const answer = await requestPrivacy(
        context.db,
        context.env,
        { businessId: business.id, accountId: user.account.id },
        body,
      );
      return json(answer, 201);
    },
  }),
});
