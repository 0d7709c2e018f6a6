import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { getSession, requireCsrf, sessionStorage, signedInSession } from "~/platform/accounts/session.server";
import { browserAnswer, passkeyRegistrationOptions, registerPasskey } from "~/platform/accounts/passkeys.server";
import { ApiError, readForm } from "~/platform/core/http.server";
import { clientAddress } from "~/platform/core/client-address.server";

/** Registering a passkey from the Security page: `intent=options`, then `intent=verify` with the browser's answer and a name. */
export async function action({ request, context }: ActionFunctionArgs) {
  const signed = await signedInSession(request, context);
  if (!signed) return json({ error: "Sign in again." }, { status: 401 });
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const storage = sessionStorage(context.env);
  const session = await getSession(request, context.env);
  try {
    if (form.get("intent") === "options") {
      const { options, challengeId } = await passkeyRegistrationOptions(context.db, context.env, signed.account);
      session.set("passkeyRegister", challengeId);
      return json({ options }, { headers: { "Set-Cookie": await storage.commitSession(session) } });
    }
    const response = browserAnswer(form);
    await registerPasskey(
      context.db,
      context.env,
      { account: signed.account, sessionId: signed.sessionId, ip: clientAddress(request) },
      { challengeId: session.get("passkeyRegister"), response, name: String(form.get("name") ?? "") },
    );
    return json({ ok: true });
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message }, { status: e.status });
    throw e;
  }
}

export const loader = () => new Response("Not found", { status: 404 });
