/**
 * The admin's image upload for pages that upload with JavaScript (the site builder's image block):
 * the signed-in merchant's session and CSRF token, a multipart form with the file in `file`;
 * answers like `POST /merchant/files` (201 with the stored image, 400 with `{error}`).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { fileOf, storeImage } from "~/platform/files/files.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "pages");
  return formAction(request, context, async (form) =>
    json(await storeImage(context.db, business.id, context.env.storefrontUrl, await fileOf(form)), 201),
  );
}

export const loader = () => new Response("Not found", { status: 404 });
