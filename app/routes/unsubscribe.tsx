import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { MAIL_KINDS } from "~/platform/mail/kinds";
import { readUnsubscribeToken, setMailChoice } from "~/platform/mail/unsubscribe.server";
import { readForm } from "~/platform/core/http.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe · Storefront Apps" }];

/**
 * A notification's unsubscribe link (contract 16, RFC 8058). GET shows what the link stops and a
 * button (a link scanner following it changes nothing); POST, from that button or a mail client's
 * one-click `List-Unsubscribe=One-Click` (sent by the mail provider's server, without cookies or
 * Origin), turns the kind off without signing in: the signed token is the proof, so the form carries
 * no CSRF token.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const read = readUnsubscribeToken(context.env, token);
  return json({ token, label: read ? MAIL_KINDS[read.kind].label : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  await readForm(request).catch(() => null);
  const read = readUnsubscribeToken(context.env, token);
  if (!read) return json({ done: false, error: "This unsubscribe link is not valid." }, 400);
  await setMailChoice(context.db, read.accountId, read.kind, false);
  return json({ done: true, error: null });
}

export default function Unsubscribe() {
  const { token, label } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card auth-card">
        <h1>Unsubscribe</h1>
        {result?.done ? (
          <p className="alert success" role="status">
            You will no longer receive &ldquo;{label}&rdquo; e-mails. <Link to="/account/emails">Choose your e-mails</Link>
          </p>
        ) : label ? (
          <Form method="post" action={`/unsubscribe?token=${encodeURIComponent(token)}`} className="stack">
            <p>Stop receiving &ldquo;{label}&rdquo; e-mails?</p>
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit" className="button primary">
              Unsubscribe
            </button>
          </Form>
        ) : (
          <p className="alert error" role="alert">
            {result?.error ?? "This unsubscribe link is not valid."} <Link to="/account/emails">Choose your e-mails</Link>
          </p>
        )}
      </div>
    </main>
  );
}
