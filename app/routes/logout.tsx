import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireCsrf, signOut } from "~/platform/accounts/session.server";
import { readForm } from "~/platform/core/http.server";

export async function action({ request, context }: ActionFunctionArgs) {
  await requireCsrf(request, await readForm(request), context.env);
  return signOut(request, context);
}

export const loader = () => redirect("/");
