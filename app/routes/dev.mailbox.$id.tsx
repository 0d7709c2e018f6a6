import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { getDevMailboxMessage, requireDevMailbox } from "~/platform/mail/dev-mailbox.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.message.subject ?? "Message"} · Mailbox (development)` },
];

/** One received message: its HTML in a sandboxed frame, its text, its raw source (`?view=`). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const m = await getDevMailboxMessage(context.db, params.id ?? "");
  if (!m) throw new Response("No such message", { status: 404 });
  return json({
    message: { ...m, receivedAt: m.receivedAt.toISOString() },
    // the HTML part is framed from this origin (its own answer, sandboxed, no scripts)
    cspFrameOrigins: [context.env.publicUrl],
  });
}

const VIEWS = [
  ["html", "HTML"],
  ["text", "Text"],
  ["raw", "Source"],
] as const;

export default function MailboxMessage() {
  const { message: m } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const view = VIEWS.some(([v]) => v === params.get("view")) ? params.get("view") : m.html ? "html" : "text";
  return (
    <main id="main" tabIndex={-1} className="page">
      <p>
        <Link to="/dev/mailbox">← Mailbox</Link>
      </p>
      <h1>{m.subject || "(no subject)"}</h1>
      <dl className="details">
        <dt>From</dt>
        <dd>{m.fromHeader}</dd>
        <dt>To</dt>
        <dd>{m.toHeader}</dd>
        <dt>Message-ID</dt>
        <dd>
          <code>{m.messageId}</code>
        </dd>
        <dt>Received</dt>
        <dd>{m.receivedAt}</dd>
      </dl>
      <nav aria-label="Views of the message" className="tabs">
        {VIEWS.map(([v, label]) => (
          <Link key={v} to={`?view=${v}`} aria-current={view === v ? "page" : undefined} className="button">
            {label}
          </Link>
        ))}
      </nav>
      {view === "html" && m.html ? (
        <iframe
          title="The message's HTML part"
          sandbox=""
          src={`/dev/mailbox/${m.id}/html`}
          style={{ width: "100%", height: "70vh", border: "1px solid #d0d7de", background: "#fff" }}
        />
      ) : view === "raw" ? (
        <pre className="mail-source" data-testid="mail-raw">
          {m.raw}
        </pre>
      ) : (
        <pre className="mail-text" data-testid="mail-text" style={{ whiteSpace: "pre-wrap" }}>
          {m.text ?? "(no text part)"}
        </pre>
      )}
    </main>
  );
}
