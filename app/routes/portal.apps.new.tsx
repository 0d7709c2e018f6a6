import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { createApp, createAppSchema } from "~/platform/apps/apps.server";
import { ApiError, describeZodError, readForm } from "~/platform/core/http.server";
import { AppForm, appFormToInput, emptyApp, type AppFormValues } from "~/components/app-form";
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
  if (!parsed.success) return json({ error: describeZodError(parsed.error), values: input }, 400);
  try {
    const { app, clientSecret } = await createApp(context.db, context.env, account.id, parsed.data);
    return redirect(`/portal/apps/${app.id}/credentials`, { headers: { "Set-Cookie": await flashSecret(request, context.env, app.id, clientSecret) } });
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message, values: input }, e.status);
    throw e;
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
      {data?.error ? <p className="alert error" role="alert">{data.error}</p> : null}
      <div className="card">
        <AppForm values={values} mode="create" submitLabel="Create app" />
      </div>
    </div>
  );
}
