import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { createAccount, registerSchema } from "~/platform/accounts/accounts.server";
import { homeFor, requireCsrf, safeRedirect, signIn } from "~/platform/accounts/session.server";
import { ApiError, describeZodError, readForm } from "~/platform/core/http.server";
import { CsrfInput } from "~/components/csrf";
import { PasswordStrength } from "~/components/password-strength";

export const meta: MetaFunction = () => [{ title: "Sign up · Storefront Apps" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const role = form.get("role");
  const parsed = registerSchema.safeParse({
    email: form.get("email") ?? "",
    password: form.get("password") ?? "",
    name: form.get("name") ?? "",
    role,
    businessName: role === "MERCHANT" ? (form.get("businessName") || undefined) : undefined,
  });
  if (!parsed.success) return json({ error: describeZodError(parsed.error) }, 400);
  try {
    const { account } = await createAccount(context.db, parsed.data);
    return signIn(request, context, account, safeRedirect(form.get("redirectTo"), homeFor(account.role)));
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message }, e.status);
    throw e;
  }
}

export default function Signup() {
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [role, setRole] = useState(params.get("role") === "MERCHANT" ? "MERCHANT" : "DEVELOPER");
  const busy = useNavigation().state !== "idle";
  const [password, setPassword] = useState("");
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Create your account</h1>
        {data?.error ? <p className="alert error" role="alert">{data.error}</p> : null}
        <Form method="post" className="stack">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <fieldset className="role-picker">
            <legend>I am…</legend>
            <label className={role === "DEVELOPER" ? "choice selected" : "choice"}>
              <input type="radio" name="role" value="DEVELOPER" checked={role === "DEVELOPER"} onChange={() => setRole("DEVELOPER")} />
              <strong>An app developer</strong>
              <span className="muted">Build apps; you get a sandbox shop with demo data.</span>
            </label>
            <label className={role === "MERCHANT" ? "choice selected" : "choice"}>
              <input type="radio" name="role" value="MERCHANT" checked={role === "MERCHANT"} onChange={() => setRole("MERCHANT")} />
              <strong>A merchant</strong>
              <span className="muted">Run a shop and install apps.</span>
            </label>
          </fieldset>
          <label>
            Your name
            <input name="name" autoComplete="name" required />
          </label>
          <label>
            Email
            <input type="email" name="email" autoComplete="email" required />
          </label>
          <label>
            Password <span className="muted">(at least 8 characters, not one of the most common)</span>
            <input type="password" name="password" autoComplete="new-password" minLength={8} required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="password-help" />
          </label>
          <div id="password-help">
            <PasswordStrength password={password} />
          </div>
          {role === "MERCHANT" ? (
            <label>
              Business name
              <input name="businessName" required />
            </label>
          ) : null}
          <button type="submit" className="button primary" disabled={busy}>{busy ? "Creating your account…" : "Create account"}</button>
        </Form>
        <p className="muted">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
