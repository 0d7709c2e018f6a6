import { sendsVerification } from "~/platform/accounts/account-mail.server";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { createAccount, registerSchema } from "~/platform/accounts/accounts.server";
import { homeFor, safeRedirect, signIn } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { messageFormErrors, zodFormErrors } from "~/platform/core/form-errors.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorSummary, FieldError, fieldProps } from "~/components/form-errors";
import { SubmitButton } from "~/components/submit-button";
import { PasswordStrength } from "~/components/password-strength";

export const meta: MetaFunction = () => [{ title: "Sign up · Storefront Apps" }];

const LABELS = {
  role: "Account type",
  name: "Your name",
  email: "Email",
  password: "Password",
  businessName: "Business name",
};
const ORDER = ["role", "name", "email", "password", "businessName"];

type Role = "MERCHANT" | "DEVELOPER";
const roleOf = (v: unknown): Role | null => (v === "MERCHANT" || v === "DEVELOPER" ? v : null);

/** The question's answer is not guessed: a person who has not chosen is asked to. */
const NO_ROLE = "Choose whether you want to run a shop or build apps";

/**
 * Sign-up reached from the marketplace's install path (the consent screen sent a visitor to sign
 * in, then here): only a shop installs apps, so the form is the merchant's.
 */
export const isInstallPath = (redirectTo: string | null) =>
  !!redirectTo && /^\/(oauth\/authorize|marketplace\/[^/?#]+\/install)(?:[/?#]|$)/.test(redirectTo);

/** The typed values that come back with the errors (never the password). */
function valuesOf(form: FormData) {
  const text = (name: string) => (typeof form.get(name) === "string" ? String(form.get(name)) : "");
  return {
    role: roleOf(form.get("role")),
    name: text("name"),
    email: text("email"),
    businessName: text("businessName"),
  };
}

/** A taken email next to the email field. */
const refused = {
  error: (e: ApiError, form: FormData) => ({
    errors: messageFormErrors(e.message, LABELS, [{ test: /email/i, field: "email" }]),
    values: valuesOf(form),
  }),
};

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, context, refused, async (form) => {
    const role = roleOf(form.get("role"));
    const parsed = registerSchema.safeParse({
      email: form.get("email") ?? "",
      password: form.get("password") ?? "",
      name: form.get("name") ?? "",
      role,
      businessName: role === "MERCHANT" ? form.get("businessName") || undefined : undefined,
    });
    if (!parsed.success || !role) {
      const errors = parsed.success ? { fields: {}, form: [] } : zodFormErrors(parsed.error, LABELS);
      // no choice made: said in words, not "must be DEVELOPER or MERCHANT"
      if (!role) errors.fields.role = NO_ROLE;
      return json({ errors, values: valuesOf(form) }, 400);
    }
    const { account } = await createAccount(context.db, parsed.data, sendsVerification(context.env));
    return signIn(request, context, account, safeRedirect(form.get("redirectTo"), homeFor(account.role)));
  });
}

export default function Signup() {
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const values = data?.values;
  const errors = data?.errors ?? null;
  const redirectTo = params.get("redirectTo");
  const installing = isInstallPath(redirectTo);
  // nothing is chosen in advance: the home page's "Open a shop" (?role=MERCHANT) and the install path choose the shop
  const [role, setRole] = useState<Role | null>(values?.role ?? (installing ? "MERCHANT" : roleOf(params.get("role"))));
  const [password, setPassword] = useState("");
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Create your account</h1>
        <ErrorSummary errors={errors} order={ORDER} />
        {installing ? (
          <p className="alert info" data-testid="install-signup">
            Create your shop&apos;s account to install the app. You come back to the app&apos;s permissions next.
          </p>
        ) : null}
        <Form method="post" className="stack" noValidate key={JSON.stringify(values ?? null)}>
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
          <fieldset className="role-picker" {...fieldProps("role", errors)} tabIndex={-1}>
            <legend>What do you want to do?</legend>
            <FieldError name="role" errors={errors} />
            <label className={role === "MERCHANT" ? "choice selected" : "choice"}>
              <input
                type="radio"
                name="role"
                value="MERCHANT"
                checked={role === "MERCHANT"}
                onChange={() => setRole("MERCHANT")}
              />
              <strong>Run a shop</strong>
              <span className="muted">Sell online, take orders and install apps.</span>
            </label>
            <label className={role === "DEVELOPER" ? "choice selected" : "choice"}>
              <input
                type="radio"
                name="role"
                value="DEVELOPER"
                checked={role === "DEVELOPER"}
                onChange={() => setRole("DEVELOPER")}
              />
              <strong>Build apps</strong>
              <span className="muted">Make apps for shops; you get a sandbox shop with demo data.</span>
            </label>
          </fieldset>
          <div className="field">
            <label>
              Your name
              <input
                name="name"
                autoComplete="name"
                required
                defaultValue={values?.name}
                {...fieldProps("name", errors)}
              />
            </label>
            <FieldError name="name" errors={errors} />
          </div>
          <div className="field">
            <label>
              Email
              <input
                type="email"
                name="email"
                autoComplete="email"
                required
                defaultValue={values?.email}
                {...fieldProps("email", errors)}
              />
            </label>
            <FieldError name="email" errors={errors} />
          </div>
          <div className="field">
            <label>
              Password <span className="muted">(at least 8 characters, not one of the most common)</span>
              <input
                type="password"
                name="password"
                autoComplete="new-password"
                minLength={8}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                {...fieldProps("password", errors, "password-help")}
              />
            </label>
            <FieldError name="password" errors={errors} />
          </div>
          <div id="password-help">
            <PasswordStrength password={password} />
          </div>
          {role === "MERCHANT" ? (
            <div className="field">
              <label>
                Business name
                <input
                  name="businessName"
                  required
                  defaultValue={values?.businessName}
                  {...fieldProps("businessName", errors)}
                />
              </label>
              <FieldError name="businessName" errors={errors} />
            </div>
          ) : null}
          <SubmitButton className="button primary" busyLabel="Creating your account…">
            Create account
          </SubmitButton>
        </Form>
        <p className="muted">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
