import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ApiError } from "~/platform/core/http.server";
import { requireCsrf, getSignedInAccount, safeRedirect } from "~/platform/accounts/session.server";
import { readForm } from "~/platform/core/http.server";
import { resendVerification, verifyEmailToken } from "~/platform/accounts/account-mail.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail address · Storefront Apps" }];

/** The verification link's page: following it verifies the address (the token works once). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  try {
    const account = await verifyEmailToken(context.db, token);
    return json({ verified: true, email: account.email, error: null });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const signedIn = await getSignedInAccount(request, context);
    return json({
      verified: signedIn?.emailVerifiedAt != null,
      email: signedIn?.email ?? null,
      error: e.message.replace(/^token: /, ""),
    });
  }
}

/** The banner's "Send a new link" (signed in, CSRF): a new link, then back to the page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const account = await getSignedInAccount(request, context);
  if (!account) throw redirect("/login?redirectTo=/verify-email");
  const back = safeRedirect(form.get("redirectTo"), "/");
  try {
    await resendVerification(context.db, context.env, account);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return json({ error: e.message }, e.status);
  }
  return redirect(back + (back.includes("?") ? "&" : "?") + "verificationSent=1");
}

export default function VerifyEmail() {
  const data = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>{data.verified ? "Address confirmed" : "Confirm your e-mail address"}</h1>
        {data.verified ? (
          <p className="alert success" role="status">
            {data.email} is confirmed. <Link to="/login">Continue</Link>
          </p>
        ) : (
          <p className="alert error" role="alert">
            {data.error} Sign in and use &ldquo;Send a new link&rdquo; to get another.
          </p>
        )}
      </div>
    </main>
  );
}
