import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { createApp, createAppSchema } from "~/platform/apps/apps.server";
import { readForm } from "~/platform/core/http.server";
import { apiFormErrors, errorStatus, zodFormErrors } from "~/platform/core/form-errors.server";
import { APP_LABELS, AppForm, appFormToInput, emptyApp, type AppFormValues } from "~/components/app-form";
import { flashSecret } from "~/platform/apps/secret-flash.server";

export const meta: MetaFunction = () => [{ title: "Create app · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account } = await requireUser(request, context, "DEVELOPER");
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const input = appFormToInput(form, "create");
  const parsed = createAppSchema(context.env).safeParse(input);
  if (!parsed.success) return json({ errors: zodFormErrors(parsed.error, APP_LABELS), values: input }, 400);
  try {
    const { app, clientSecret } = await createApp(context.db, context.env, account.id, parsed.data);
    return redirect(`/portal/apps/${app.id}/credentials`, { headers: { "Set-Cookie": await flashSecret(request, context.env, app.id, clientSecret) } });
  } catch (e) {
    return json({ errors: apiFormErrors(e, APP_LABELS, [{ test: /^The slug /, field: "slug" }]), values: input }, errorStatus(e));
  }
}

export default function NewApp() {
  const data = useActionData<typeof action>();
  const values = (data?.values as AppFormValues | undefined) ?? emptyApp;
  return (
    <div className="stack-lg">
      <header>
        <p><Link to="/portal/apps">← My apps</Link></p>
        <h1>Create an app</h1>
        <p className="lead">You get a client ID and a client secret. The secret is shown once, right after this step.</p>
      </header>
      <div className="card">
        <AppForm values={values} mode="create" submitLabel="Create app" errors={data?.errors} />
      </div>
    </div>
  );
}
