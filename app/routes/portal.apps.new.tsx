import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { createApp, createAppSchema } from "~/platform/apps/apps.server";
import { messageFormErrors, zodFormErrors } from "~/platform/core/form-errors.server";
import { APP_LABELS, AppForm, appFormToInput, emptyApp, type AppFormValues } from "~/components/app-form";
import { flashSecret } from "~/platform/apps/secret-flash.server";

export const meta: MetaFunction = () => [{ title: "Create app · Developer portal" }];

/** A taken slug next to the slug field, with what was typed. */
const refused = {
  error: (e: ApiError, form: FormData) => ({
    errors: messageFormErrors(e.message, APP_LABELS, [{ test: /^The slug /, field: "slug" }]),
    values: appFormToInput(form, "create"),
  }),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDeveloper(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account } = await requireDeveloper(request, context);
  return formAction(request, context, refused, async (form) => {
    const input = appFormToInput(form, "create");
    const parsed = createAppSchema(context.env).safeParse(input);
    if (!parsed.success) return json({ errors: zodFormErrors(parsed.error, APP_LABELS), values: input }, 400);
    const { app, clientSecret } = await createApp(context.db, context.env, account.id, parsed.data);
    return redirect(`/portal/apps/${app.id}/credentials`, {
      headers: { "Set-Cookie": await flashSecret(request, context.env, app.id, clientSecret) },
    });
  });
}

export default function NewApp() {
  const data = useActionData<typeof action>();
  const values = (data?.values as AppFormValues | undefined) ?? emptyApp;
  return (
    <div className="stack-lg">
      <header>
        <p>
          <Link to="/portal/apps">← My apps</Link>
        </p>
        <h1>Create an app</h1>
        <p className="lead">
          You get a client ID and a client secret. The secret is shown once, right after this step.
        </p>
      </header>
      <div className="card">
        <AppForm values={values} mode="create" submitLabel="Create app" errors={data?.errors} />
      </div>
    </div>
  );
}
