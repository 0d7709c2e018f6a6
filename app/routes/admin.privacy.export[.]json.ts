import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { requestPrivacy, shopperEmail } from "~/platform/privacy/privacy.server";
import { dateFormatter } from "~/platform/core/dates";

/** An instant as the platform stores and the API answers it (UTC, "2026-11-28T09:05:07.123Z"). */
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Every instant of the answer in the shop's time zone, with its offset ("2026-11-28T10:05:07+01:00"): the same instants. */
function inZone(value: unknown, iso: (at: string) => string): unknown {
  if (value instanceof Date) return iso(value.toISOString());
  if (typeof value === "string") return UTC_INSTANT.test(value) ? iso(value) : value;
  if (Array.isArray(value)) return value.map((v) => inZone(v, iso));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inZone(v, iso)]));
  return value;
}

/**
 * POST /admin/privacy/export.json (the Customer privacy page's Export button, CSRF-protected): a
 * shopper's data as a JSON download, recorded and told to the apps like the merchant API's EXPORT.
 * A resource route, so that the browser gets the file itself (a page's action answers with the page).
 * The file is for the merchant: its times are in the shop's time zone, ISO 8601 with the offset,
 * and it names the zone (`timeZone`); the merchant API's answer stays in UTC.
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
    const dates = dateFormatter("en-US", business.timezone);
    const file = { ...(inZone(answer, (at) => dates.iso(at)) as typeof answer), timeZone: dates.timeZone };
    return new Response(JSON.stringify(file, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="customer-data-${answer.id}.json"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
