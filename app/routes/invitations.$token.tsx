import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { getSignedInAccount, homeFor, signIn } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { ApiError } from "~/platform/core/http.server";
import { acceptInvitation, viewInvitation } from "~/platform/teams/invitations.server";
import { APP_ROLE_LABELS, PERMISSION_LABELS, isPermission, type AppRole } from "~/platform/accounts/permissions";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Invitation · Storefront Apps" }];

/** The link of an invitation e-mail (contract 17): what it grants, and the form to accept it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const signedIn = await getSignedInAccount(request, context);
  try {
    const invitation = await viewInvitation(context.db, params.token);
    return json(
      {
        invitation,
        signedInAs: signedIn ? { email: signedIn.email, role: signedIn.role } : null,
        refusal: null as string | null,
      },
      { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
    );
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return json({ invitation: null, signedInAs: null, refusal: e.message }, { status: e.status });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return formAction(request, context, async (form) => {
    const signedIn = await getSignedInAccount(request, context);
    // an app's invitation to an existing developer is accepted signed in as that account
    const asAccount = form.get("as") === "account" ? signedIn : null;
    if (form.get("as") === "account" && !asAccount) throw new ApiError(401, "Sign in first");
    const { account } = await acceptInvitation(
      context.db,
      {
        token: params.token ?? "",
        name: asAccount ? undefined : String(form.get("name") ?? "").trim(),
        password: asAccount ? undefined : String(form.get("password") ?? ""),
      },
      asAccount,
    );
    return signIn(request, context, account, homeFor(account.role));
  });
}

export default function InvitationPage() {
  const { invitation, signedInAs, refusal } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const path = useLocation().pathname;
  if (!invitation)
    return (
      <main id="main" tabIndex={-1} className="page narrow">
        <div className="card auth-card">
          <h1>Invitation</h1>
          <p className="alert warning" role="alert">
            {refusal}
          </p>
          <p>
            <Link to="/login">Sign in</Link>
          </p>
        </div>
      </main>
    );
  const asExisting =
    invitation.kind === "APP" && signedInAs?.role === "DEVELOPER" && signedInAs.email === invitation.email;
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card stack">
        <h1>Join {invitation.to}</h1>
        {invitation.kind === "STAFF" ? (
          <p data-testid="invitation-grants">
            You are invited to the staff of <strong>{invitation.to}</strong> as <strong>{invitation.email}</strong>,
            with these permissions:{" "}
            {invitation.permissions.length
              ? invitation.permissions
                  .filter(isPermission)
                  .map((p) => PERMISSION_LABELS[p].label)
                  .join(", ")
              : "none yet (the owner can add some)"}
            .
          </p>
        ) : (
          <p data-testid="invitation-grants">
            You are invited to work on the app <strong>{invitation.to}</strong> as{" "}
            <strong>{APP_ROLE_LABELS[invitation.appRole as AppRole]?.label}</strong> ({invitation.email}).
          </p>
        )}
        <ErrorAlert error={data && "error" in data ? data.error : null} />
        {asExisting ? (
          <Form method="post" className="stack">
            <CsrfInput />
            <input type="hidden" name="as" value="account" />
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? "Accepting…" : "Accept the invitation"}
            </button>
          </Form>
        ) : invitation.hasAccount ? (
          <p className="alert warning">
            {invitation.kind === "APP"
              ? "This address already has a developer account: "
              : "This address already has an account, and an account belongs to one business; ask for an invitation to another address. "}
            {invitation.kind === "APP" ? (
              <Link to={`/login?redirectTo=${encodeURIComponent(path)}`}>sign in</Link>
            ) : null}
            {invitation.kind === "APP" ? " and open this link again to accept." : null}
          </p>
        ) : (
          <Form method="post" className="stack">
            <CsrfInput />
            <label>
              E-mail
              <input type="email" value={invitation.email} readOnly />
            </label>
            <label>
              Your name
              <input type="text" name="name" autoComplete="name" required maxLength={100} />
            </label>
            <label>
              Choose a password
              <input type="password" name="password" autoComplete="new-password" required minLength={8} />
            </label>
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? "Joining…" : "Accept and join"}
            </button>
          </Form>
        )}
      </div>
    </main>
  );
}
