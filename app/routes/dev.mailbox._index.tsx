import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDevMailbox, requireDevMailbox } from "~/platform/mail/dev-mailbox.server";

export const meta: MetaFunction = () => [{ title: "Mailbox · Storefront Apps (development)" }];

/** The development mailbox (contract 16): what the embedded SMTP server received, newest first. 404 in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const messages = await listDevMailbox(context.db);
  return json({ messages: messages.map((m) => ({ ...m, receivedAt: m.receivedAt.toISOString() })) });
}

export default function Mailbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1} className="page">
      <h1>Mailbox</h1>
      <p className="muted">
        Development only: every message the platform sent while <code>MAIL_URL</code> is unset, newest first.
      </p>
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
