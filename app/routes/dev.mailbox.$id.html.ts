import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDevMailboxMessage, requireDevMailbox } from "~/platform/mail/dev-mailbox.server";

/**
 * A message's HTML part, for the mailbox's frame only: no script, no form, nothing fetched but images,
 * framed by this origin alone, and sandboxed by the frame and by its own policy.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const m = await getDevMailboxMessage(context.db, params.id ?? "");
  if (!m?.html) return new Response("No HTML part", { status: 404 });
  return new Response(m.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; sandbox; frame-ancestors 'self'",
      "X-Frame-Options": "SAMEORIGIN",
      "Cache-Control": "no-store",
    },
  });
}
