/**
 * The manifest editor's live check (a dry run that changes nothing): POST the text as the page's
 * form would (`manifest`, `csrf`), answer the server's problems, each with the JSON pointer of the
 * field it names so that the editor shows it at its line. Same validation as Check and Save.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { ApiError, readForm } from "~/platform/core/http.server";
import { checkManifestText } from "~/platform/extensions/manifest-text.server";
import { splitServerMessage } from "~/components/manifest-editor/json-paths";

export type LintAnswer = { errors: { path: string; message: string }[] };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account } = await requireUser(request, context, "DEVELOPER");
  await getDeveloperApp(context.db, account.id, params.appId!).catch((e) => {
    if (e instanceof ApiError) throw new Response("App not found", { status: 404 });
    throw e;
  });
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const { problems } = checkManifestText(String(form.get("manifest") ?? ""));
  // a page's resource route, not under the JSON prefixes that get no-store in web.server: say it here
  return json<LintAnswer>({ errors: problems.map(splitServerMessage) }, { headers: { "Cache-Control": "no-store" } });
}
