import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  PENDING_STEP,
  getSession,
  homeFor,
  requireCsrf,
  safeRedirect,
  sessionStorage,
  signIn,
} from "~/platform/accounts/session.server";
import { browserAnswer, passkeySignInOptions, verifyPasskeySignIn } from "~/platform/accounts/passkeys.server";
import { closeSecondStep, pendingAccount } from "~/platform/accounts/second-step.server";
import { ApiError, readForm } from "~/platform/core/http.server";

/**
 * A passkey sign-in from /login (decision 072): `intent=options` gives the browser its challenge
 * (kept in the cookie by id); `intent=verify` checks the answer and starts the session. On the code
 * step the passkey must be the pending account's; on the first step any discoverable passkey signs
 * in alone.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const storage = sessionStorage(context.env);
  const session = await getSession(request, context.env);
  const secondStep = form.get("mode") === "second-step";
  try {
    const pending = secondStep ? await pendingAccount(context.db, session.get(PENDING_STEP)) : null;
    if (secondStep && !pending) throw new ApiError(409, "Your sign-in expired; start again.");
    if (form.get("intent") === "options") {
      const { options, challengeId } = await passkeySignInOptions(context.db, context.env, pending?.id ?? null);
      session.set("passkeySignIn", challengeId);
      return json({ options }, { headers: { "Set-Cookie": await storage.commitSession(session) } });
    }
    const response = browserAnswer(form);
    const account = await verifyPasskeySignIn(context.db, context.env, {
      challengeId: session.get("passkeySignIn"),
      response,
    });
    if (pending) {
      if (pending.id !== account.id) throw new ApiError(401, "This passkey belongs to another account");
      await closeSecondStep(context.db, session.get(PENDING_STEP), account);
    }
    const to = safeRedirect(form.get("redirectTo"), homeFor(account.role));
    const done = await signIn(request, context, account, to, pending ? "password and passkey" : "passkey");
    return json({ redirectTo: to }, { headers: { "Set-Cookie": done.headers.get("Set-Cookie") ?? "" } });
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message }, { status: e.status });
    throw e;
  }
}

export const loader = () => new Response("Not found", { status: 404 });
