import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formAction } from "~/platform/accounts/form-action.server";
import { signIn, homeFor } from "~/platform/accounts/session.server";
import { confirmPasswordReset } from "~/platform/accounts/account-mail.server";
import { peekAccountToken } from "~/platform/mail/tokens.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Storefront Apps" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const row = await peekAccountToken(context.db, "RESET_PASSWORD", token);
  return json({ token, valid: row !== null });
}

/** Sets the password (the token works once; every other session ends) and signs in with the new one. */
export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, context, async (form) => {
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) return json({ error: "The two passwords differ." }, 400);
    const account = await confirmPasswordReset(context.db, form.get("token"), password);
    return signIn(request, context, account, homeFor(account.role));
  });
}

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Choose a new password</h1>
        {valid ? (
          <>
            <ErrorAlert error={data && "error" in data ? data.error : null} />
            <Form method="post" className="stack">
              <CsrfInput />
              <input type="hidden" name="token" value={token} />
              <label>
                New password
                <input type="password" name="password" autoComplete="new-password" minLength={8} required />
              </label>
              <label>
                New password again
                <input type="password" name="confirm" autoComplete="new-password" minLength={8} required />
              </label>
              <button type="submit" className="button primary" disabled={busy}>
                {busy ? "Saving…" : "Save and sign in"}
              </button>
            </Form>
            <p className="muted">Saving signs out every other session of the account.</p>
          </>
        ) : (
          <p className="alert error" role="alert">
            This link is invalid, expired or already used. <Link to="/forgot-password">Ask for a new one</Link>.
          </p>
        )}
      </div>
    </main>
  );
}
