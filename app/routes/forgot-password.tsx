import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { formAction } from "~/platform/accounts/form-action.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { requestPasswordReset } from "~/platform/accounts/account-mail.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Forgot your password? · Storefront Apps" }];

const SENT = "If an account has this address, a link to reset its password is on its way. It works for one hour.";

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, context, async (form) => {
    const email = String(form.get("email") ?? "").slice(0, 254);
    if (!email.includes("@")) return json({ error: "Enter the e-mail address of your account.", sent: null }, 400);
    await requestPasswordReset(context.db, context.env, email, clientAddress(request));
    return json({ error: null, sent: SENT });
  });
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const sent = data && "sent" in data ? data.sent : null;
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Forgot your password?</h1>
        <p className="muted">
          Enter your account&apos;s e-mail address and we will send you a link to choose a new one.
        </p>
        <ErrorAlert error={data?.error} />
        {sent ? (
          <p className="alert success" role="status">
            {sent}
          </p>
        ) : (
          <Form method="post" className="stack">
            <CsrfInput />
            <label>
              Email
              <input type="email" name="email" autoComplete="email" required />
            </label>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? "Sending…" : "Send the link"}
            </button>
          </Form>
        )}
        <p className="muted">
          <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    </main>
  );
}
