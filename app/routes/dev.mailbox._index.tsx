import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { listDevMailbox, queueSamples, requireDevMailbox } from "~/platform/mail/dev-mailbox.server";
import { requireCsrf } from "~/platform/accounts/session.server";
import { readForm } from "~/platform/core/http.server";
import { CsrfInput } from "~/components/csrf";

export const meta: MetaFunction = () => [{ title: "Mailbox · Storefront Apps (development)" }];

/** The development mailbox (contract 16): what the embedded SMTP server received, newest first. 404 in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const messages = await listDevMailbox(context.db);
  return json({ messages: messages.map((m) => ({ ...m, receivedAt: m.receivedAt.toISOString() })) });
}

/** "Send a sample of every message": one of each kind through the outbox, the worker and SMTP. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireDevMailbox(context.env);
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const queued = await queueSamples(context.db);
  return redirect(`/dev/mailbox?samples=${queued}`);
}

export default function Mailbox() {
  const { messages } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const samples = params.get("samples");
  return (
    <main id="main" tabIndex={-1} className="page">
      <h1>Mailbox</h1>
      <p className="muted">
        Development only: every message the platform sent while <code>MAIL_URL</code> is unset, newest first.
      </p>
      <Form method="post" className="row wrap">
        <CsrfInput />
        <button type="submit" className="button secondary">
          Send a sample of every message
        </button>
        {samples ? (
          <span role="status" className="muted">
            {samples} samples queued: they arrive in a few seconds (reload).
          </span>
        ) : null}
      </Form>
      {messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.id}>
                <td>{new Date(m.receivedAt).toISOString().replace("T", " ").slice(0, 19)} UTC</td>
                <td>{m.toHeader || m.envelopeTo.join(", ")}</td>
                <td>
                  <Link to={`/dev/mailbox/${m.id}`}>{m.subject || "(no subject)"}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
