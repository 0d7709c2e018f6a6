import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { SHOPPER_KINDS, type MailKind } from "~/platform/mail/kinds";
import { previewShopperMessage } from "~/platform/mail/catalogue.server";

/** A shopper message's HTML part with a sample order, for the E-mails page's frame only (no script, framed by this origin). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "settings");
  const kind = params.kind as MailKind;
  if (!SHOPPER_KINDS.includes(kind)) throw new Response("Not Found", { status: 404 });
  return new Response(previewShopperMessage(context.env, business, kind).html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; sandbox; frame-ancestors 'self'",
      "X-Frame-Options": "SAMEORIGIN",
      "Cache-Control": "no-store",
    },
  });
}
