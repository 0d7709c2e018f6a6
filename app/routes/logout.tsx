import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, context, () => signOut(request, context));
}

export const loader = () => redirect("/");
