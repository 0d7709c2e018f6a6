/** Hides the dashboard's setup guide for the business (decision 061); the form is on the dashboard. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { dismissSetupGuide } from "~/platform/catalog/setup-guide.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, null);
  return formAction(request, context, async (form) => {
    if (form.get("intent") !== "dismiss") return json({ error: "Unknown action" }, 400);
    await dismissSetupGuide(context.db, business.id);
    return redirect("/admin?guide=hidden");
  });
}

export const loader = () => redirect("/admin");
