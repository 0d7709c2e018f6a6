import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { requestPrivacy, shopperEmail } from "~/platform/privacy/privacy.server";

/**
 * POST /admin/privacy/export.json (the Customer privacy page's Export button, CSRF-protected): a
 * shopper's data as a JSON download, recorded and told to the apps like the merchant API's EXPORT.
 * A resource route, so that the browser gets the file itself (a page's action answers with the page).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { account, business } = await requireMerchant(request, context, "privacy");
  return formAction(request, context, async (form) => {
    const email = shopperEmail.safeParse(String(form.get("email") ?? ""));
    if (!email.success) return json({ error: "Enter an e-mail address, like jane@example.com." }, 400);
    const answer = await requestPrivacy(
      context.db,
      context.env,
      { businessId: business.id, accountId: account.id },
      { email: email.data, kind: "EXPORT" },
    );
    return new Response(JSON.stringify(answer, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="customer-data-${answer.id}.json"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
