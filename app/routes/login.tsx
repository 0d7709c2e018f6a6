import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { authenticate, loginSchema } from "~/platform/accounts/accounts.server";
import { getSignedInAccount, homeFor, safeRedirect, signIn } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Sign in · Storefront Apps" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const account = await getSignedInAccount(request, context);
  if (account) {
    const to = new URL(request.url).searchParams.get("redirectTo");
    throw redirect(safeRedirect(to, homeFor(account.role)));
  }
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  // a refusal (wrong password, too many attempts with its Retry-After) is the form's message
  return formAction(request, context, async (form) => {
    const parsed = loginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
    if (!parsed.success) return json({ error: "Enter your email and password." }, 400);
    const account = await authenticate(context.db, parsed.data, clientAddress(request));
    return signIn(request, context, account, safeRedirect(form.get("redirectTo"), homeFor(account.role)));
  });
}

export default function Login() {
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Sign in</h1>
        <p className="muted">Merchants, developers and reviewers sign in here.</p>
        <ErrorAlert error={data?.error} />
        <Form method="post" className="stack">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <label>
            Email
            {/* the page's one task: the cursor waits in the first field, as on every sign-in page users know */}
            {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
            <input type="email" name="email" autoComplete="email" required autoFocus />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </Form>
        <p className="muted">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <p className="muted">
          New here?{" "}
          <Link
            to={`/signup${params.get("redirectTo") ? `?redirectTo=${encodeURIComponent(params.get("redirectTo")!)}` : ""}`}
          >
            Create an account
          </Link>
        </p>
      </div>
    </main>
  );
}
