/**
 * The manifest editor's live check (a dry run that changes nothing): POST the text as the page's
 * form would (`manifest`, `csrf`), answer the server's problems, each with the JSON pointer of the
 * field it names so that the editor shows it at its line. Same validation as Check and Save.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { formAction } from "~/platform/accounts/form-action.server";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { checkManifestText } from "~/platform/extensions/manifest-text.server";
import { splitServerMessage } from "~/components/manifest-editor/json-paths";

export type LintAnswer = { errors: { path: string; message: string }[] };

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireDeveloperApp(request, context, params.appId, "DEVELOPER");
  return formAction(request, context, (form) => {
    const { problems } = checkManifestText(String(form.get("manifest") ?? ""));
    // a page's resource route, not under the JSON prefixes that get no-store in web.server: say it here
    return json<LintAnswer>({ errors: problems.map(splitServerMessage) }, { headers: { "Cache-Control": "no-store" } });
  });
}
