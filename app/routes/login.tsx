import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { authenticate, loginSchema } from "~/platform/accounts/accounts.server";
import {
  PENDING_STEP,
  getSession,
  getSignedInAccount,
  homeFor,
  safeRedirect,
  sessionStorage,
  signIn,
} from "~/platform/accounts/session.server";
import { beginSecondStep, completeSecondStep, pendingAccount } from "~/platform/accounts/second-step.server";
import { deviceOf } from "~/platform/accounts/sign-in-sessions.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert } from "~/components/page-parts";
import { PasskeySignIn } from "~/components/passkey-sign-in";

export const meta: MetaFunction = () => [{ title: "Sign in · Storefront Apps" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const account = await getSignedInAccount(request, context);
  const url = new URL(request.url);
  if (account) throw redirect(safeRedirect(url.searchParams.get("redirectTo"), homeFor(account.role)));
  if (url.searchParams.get("step") === "code") {
    const session = await getSession(request, context.env);
    const pending = await pendingAccount(context.db, session.get(PENDING_STEP));
    // no live pending step (expired, used, or never started): the password again
    if (!pending)
      throw redirect(
        `/login${url.searchParams.get("redirectTo") ? `?redirectTo=${encodeURIComponent(url.searchParams.get("redirectTo")!)}` : ""}`,
      );
    return json({ step: "code" as const, email: pending.email });
  }
  return json({ step: "password" as const, email: "" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // a refusal (wrong password or code, too many attempts with its Retry-After) is the form's message
  return formAction(request, context, async (form) => {
    const redirectTo = form.get("redirectTo");
    const device = deviceOf(request, clientAddress(request));
    if (form.get("intent") === "code") {
      const session = await getSession(request, context.env);
      const account = await completeSecondStep(
        context.db,
        context.env,
        session.get(PENDING_STEP),
        String(form.get("code") ?? ""),
        device,
      );
      return signIn(request, context, account, safeRedirect(redirectTo, homeFor(account.role)), "password and code");
    }
    const parsed = loginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
    if (!parsed.success) return json({ error: "Enter your email and password." }, 400);
    const account = await authenticate(context.db, parsed.data, device.ip);
    if (!account.hasSecondFactor)
      return signIn(request, context, account, safeRedirect(redirectTo, homeFor(account.role)));
    // the password was right: a pending second step, not a session (decision 072)
    const storage = sessionStorage(context.env);
    const session = await getSession(request, context.env);
    session.set(PENDING_STEP, await beginSecondStep(context.db, account));
    const back = safeRedirect(redirectTo, "");
    return redirect(`/login?step=code${back ? `&redirectTo=${encodeURIComponent(back)}` : ""}`, {
      headers: { "Set-Cookie": await storage.commitSession(session) },
    });
  });
}

export default function Login() {
  const data = useActionData<typeof action>();
  const { step, email } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const error = data && "error" in data ? (data.error as string) : undefined;
  if (step === "code")
    return (
      <main id="main" tabIndex={-1} className="page narrow">
        <div className="card auth-card">
          <h1>Two-step sign-in</h1>
          <p className="muted">
            Signing in as <strong>{email}</strong>. Enter the 6-digit code from your authenticator app, or one of your
            recovery codes.
          </p>
          <ErrorAlert error={error} />
          <Form method="post" className="stack">
            <CsrfInput />
            <input type="hidden" name="intent" value="code" />
            <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
            <label>
              Code
              {/* the step's one task */}
              {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
              <input name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus maxLength={24} />
            </label>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? "Checking…" : "Verify"}
            </button>
          </Form>
          <PasskeySignIn mode="second-step" redirectTo={params.get("redirectTo") ?? ""} />
          <p className="muted">
            <Link to="/login">Start again</Link>
          </p>
        </div>
      </main>
    );
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Sign in</h1>
        <p className="muted">Merchants, developers and reviewers sign in here.</p>
        <ErrorAlert error={error} />
        <Form method="post" className="stack">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <label>
            Email
            {/* the page's one task: the cursor waits in the first field, as on every sign-in page users know */}
            {/* the browser offers the account's passkeys here too (autofill, "username webauthn") */}
            {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
            <input type="email" name="email" autoComplete="username webauthn" required autoFocus />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </Form>
        <PasskeySignIn mode="password-free" redirectTo={params.get("redirectTo") ?? ""} />
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
