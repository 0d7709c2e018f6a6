import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { getSignedInAccount, homeFor, requireCsrf } from "~/platform/accounts/session.server";
import { readForm } from "~/platform/core/http.server";
import { MAIL_KINDS, notificationKindsOf, type MailKind } from "~/platform/mail/kinds";
import { setMailChoice } from "~/platform/mail/unsubscribe.server";
import { CsrfInput } from "~/components/csrf";
import { SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "E-mail settings · Storefront Apps" }];

async function signedIn(request: Request, context: LoaderFunctionArgs["context"]) {
  const account = await getSignedInAccount(request, context);
  if (!account) throw redirect(`/login?redirectTo=${encodeURIComponent("/account/emails")}`);
  return account;
}

/** The account's e-mails (contract 16): what it always receives, and the notifications it chooses. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const account = await signedIn(request, context);
  const kinds = notificationKindsOf(account.role === "DEVELOPER" ? "DEVELOPER" : account.role === "MERCHANT" ? "MERCHANT" : "");
  // a developer's sandbox is a shop too (decision 036): its new orders and privacy requests
  const sandboxKinds = account.role === "DEVELOPER" ? notificationKindsOf("MERCHANT") : [];
  return json({
    email: account.email,
    verified: account.emailVerifiedAt !== null,
    home: homeFor(account.role),
    always: (Object.keys(MAIL_KINDS) as MailKind[])
      .filter((k) => MAIL_KINDS[k].always && MAIL_KINDS[k].audience === "account")
      .map((k) => MAIL_KINDS[k].label),
    choices: [...kinds, ...sandboxKinds].map((k) => ({ kind: k, label: MAIL_KINDS[k].label, on: !account.mailOff.includes(k) })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const account = await signedIn(request, context);
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const role = account.role === "DEVELOPER" ? "DEVELOPER" : account.role === "MERCHANT" ? "MERCHANT" : "";
  const kinds = [...notificationKindsOf(role), ...(account.role === "DEVELOPER" ? notificationKindsOf("MERCHANT") : [])];
  for (const kind of kinds) await setMailChoice(context.db, account.id, kind, form.get(kind) === "on");
  return redirect("/account/emails?saved=1");
}

export default function AccountEmails() {
  const { email, verified, home, always, choices } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <p>
        <Link to={home}>← Back</Link>
      </p>
      <h1>E-mail settings</h1>
      <SuccessNotice show={params.get("saved")}>Your choices are saved.</SuccessNotice>
      <p>
        E-mails go to <strong>{email}</strong> ({verified ? "confirmed" : "not confirmed yet"}).
      </p>
      <h2>Always sent</h2>
      <ul>
        {always.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      <h2>Notifications you choose</h2>
      {choices.length === 0 ? (
        <p className="muted">Your account has no notifications to choose.</p>
      ) : (
        <Form method="post" className="stack">
          <CsrfInput />
          {choices.map((c) => (
            <label key={c.kind} className="checkbox">
              <input type="checkbox" name={c.kind} defaultChecked={c.on} /> {c.label}
            </label>
          ))}
          <button type="submit" className="button primary">
            Save
          </button>
        </Form>
      )}
    </main>
  );
}
