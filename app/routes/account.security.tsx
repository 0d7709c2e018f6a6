import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { homeFor, requireCsrf, secondFactorMissing, signedInSession } from "~/platform/accounts/session.server";
import { getBusiness } from "~/platform/accounts/accounts.server";
import {
  beginTotp,
  confirmTotp,
  factorsOf,
  pendingTotp,
  regenerateRecoveryCodes,
  removeTotp,
} from "~/platform/accounts/second-factor.server";
import { listPasskeys, removePasskey, renamePasskey } from "~/platform/accounts/passkeys.server";
import { endOtherSessions, endSession, listSessions } from "~/platform/accounts/sign-in-sessions.server";
import { ApiError, readForm } from "~/platform/core/http.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { CsrfInput } from "~/components/csrf";
import { DataTable, ErrorAlert, SuccessNotice, utcDateTime } from "~/components/page-parts";
import { PasskeyRegister } from "~/components/passkey-register";

export const meta: MetaFunction = () => [{ title: "Security · Storefront Apps" }];

async function signedIn(request: Request, context: LoaderFunctionArgs["context"]) {
  const signed = await signedInSession(request, context);
  if (!signed) throw redirect(`/login?redirectTo=${encodeURIComponent("/account/security")}`);
  return signed;
}

/**
 * The account's Security page (contract 18): its authenticator app (QR code drawn here), recovery
 * codes, passkeys and sessions. Reachable by an account that must still enrol (every other page
 * sends it here); `?end=<session>` (the notices' link) asks to end that session.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, sessionId } = await signedIn(request, context);
  const business = account.businessId ? ((await getBusiness(context.db, account.businessId)) ?? null) : null;
  return json({
    email: account.email,
    home: homeFor(account.role),
    mustEnrol: secondFactorMissing({ account, business }),
    factors: await factorsOf(context.db, account.id),
    pending: await pendingTotp(context.db, context.env, account),
    passkeys: await listPasskeys(context.db, account.id),
    sessions: await listSessions(context.db, account.id, sessionId),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account, sessionId } = await signedIn(request, context);
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const by = { account, sessionId, ip: clientAddress(request) };
  const code = String(form.get("code") ?? "");
  try {
    switch (form.get("intent")) {
      case "totp-begin":
        await beginTotp(context.db, context.env, account);
        return redirect("/account/security#totp");
      case "totp-confirm":
        return json({ recoveryCodes: await confirmTotp(context.db, context.env, by, code), error: null });
      case "totp-remove":
        await removeTotp(context.db, context.env, by, code);
        return redirect("/account/security?saved=totp-removed");
      case "recovery-codes":
        return json({ recoveryCodes: await regenerateRecoveryCodes(context.db, by), error: null });
      case "passkey-rename":
        await renamePasskey(context.db, account.id, String(form.get("id") ?? ""), String(form.get("name") ?? ""));
        return redirect("/account/security?saved=passkey");
      case "passkey-remove":
        await removePasskey(context.db, by, String(form.get("id") ?? ""));
        return redirect("/account/security?saved=passkey");
      case "session-end":
        await endSession(context.db, by, String(form.get("id") ?? ""));
        return redirect("/account/security?saved=session");
      case "sessions-end-others":
        await endOtherSessions(context.db, by, sessionId);
        return redirect("/account/security?saved=session");
      default:
        return json({ recoveryCodes: null, error: "Unknown action" }, 400);
    }
  } catch (e) {
    if (e instanceof ApiError) return json({ recoveryCodes: null, error: e.message }, { status: e.status });
    throw e;
  }
}

export default function AccountSecurity() {
  const { email, home, mustEnrol, factors, pending, passkeys, sessions } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const ending = params.get("end");
  const endingSession = sessions.find((s) => s.id === ending);
  return (
    <main id="main" tabIndex={-1} className="page security-page stack-lg">
      {mustEnrol ? null : (
        <p>
          <Link to={home}>← Back</Link>
        </p>
      )}
      <h1>Security</h1>
      <p className="muted">
        How <strong>{email}</strong> signs in: a second factor, and where the account is signed in now.
      </p>
      {mustEnrol ? (
        <p role="alert" className="notice warning">
          A second factor is required for this account: set up an authenticator app or add a passkey to continue.
        </p>
      ) : null}
      <SuccessNotice show={params.get("saved")}>Saved.</SuccessNotice>
      <ErrorAlert error={data?.error} />
      {data?.recoveryCodes ? (
        <section className="card" aria-labelledby="codes-title">
          <h2 id="codes-title">Your recovery codes</h2>
          <p>
            Keep these somewhere safe: each signs in once when you cannot use your authenticator app. They are shown
            only now.
          </p>
          <ul className="recovery-codes" data-testid="recovery-codes">
            {data.recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <Link to="/account/security" className="button primary">
            I have saved them
          </Link>
        </section>
      ) : null}
      {endingSession ? (
        <section className="card" aria-labelledby="end-title">
          <h2 id="end-title">End this session?</h2>
          <p>
            {endingSession.device}, {endingSession.ip || "unknown address"}, signed in{" "}
            {utcDateTime(endingSession.createdAt)}.
          </p>
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="session-end" />
            <input type="hidden" name="id" value={endingSession.id} />
            <button type="submit" className="button danger">
              End this session
            </button>
          </Form>
        </section>
      ) : null}

      <section className="card" id="totp" aria-labelledby="totp-title">
        <h2 id="totp-title">Authenticator app</h2>
        {factors.totp ? (
          <>
            <p>
              Set up {utcDateTime(factors.totp.since)}. {factors.recoveryCodesLeft} recovery codes left.
            </p>
            <Form method="post" className="inline-form">
              <CsrfInput />
              <input type="hidden" name="intent" value="recovery-codes" />
              <button type="submit" className="button">
                Make new recovery codes
              </button>
            </Form>
            <Form method="post" className="stack">
              <CsrfInput />
              <input type="hidden" name="intent" value="totp-remove" />
              <label>
                A code to remove it
                <input name="code" autoComplete="one-time-code" inputMode="numeric" required maxLength={24} />
              </label>
              <button type="submit" className="button danger">
                Remove the authenticator app
              </button>
            </Form>
          </>
        ) : pending ? (
          <>
            <p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
            {/* drawn on the server by the qrcode library: no other site sees the secret */}
            <div
              className="qr"
              role="img"
              aria-label="QR code of the authenticator secret"
              dangerouslySetInnerHTML={{ __html: pending.qr }}
            />
            <p>
              Or type this key: <code data-testid="totp-secret">{pending.secret}</code>
            </p>
            <Form method="post" className="stack">
              <CsrfInput />
              <input type="hidden" name="intent" value="totp-confirm" />
              <label>
                Code from the app
                <input name="code" autoComplete="one-time-code" inputMode="numeric" required maxLength={8} />
              </label>
              <button type="submit" className="button primary">
                Confirm
              </button>
            </Form>
          </>
        ) : (
          <Form method="post">
            <p>Codes from an app on your phone (Google Authenticator, 1Password, Authy…) as a second step.</p>
            <CsrfInput />
            <input type="hidden" name="intent" value="totp-begin" />
            <button type="submit" className="button primary">
              Set up an authenticator app
            </button>
          </Form>
        )}
      </section>

      <section className="card stack" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        <p className="muted">
          Sign in with your fingerprint, face or device PIN, with no password, or as the second step.
        </p>
        {passkeys.length ? (
          <ul className="stack">
            {passkeys.map((k) => (
              <li key={k.id}>
                <Form method="post" className="inline-form">
                  <CsrfInput />
                  <input type="hidden" name="id" value={k.id} />
                  <label>
                    Name
                    <input name="name" defaultValue={k.name} maxLength={60} required />
                  </label>
                  <button type="submit" name="intent" value="passkey-rename" className="button">
                    Rename
                  </button>
                  <button type="submit" name="intent" value="passkey-remove" className="button danger">
                    Remove
                  </button>
                  <span className="muted">
                    added {utcDateTime(k.createdAt)}
                    {k.lastUsedAt ? `, last used ${utcDateTime(k.lastUsedAt)}` : ""}
                  </span>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <PasskeyRegister />
      </section>

      <section className="card stack" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        <DataTable
          rows={sessions}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ "data-session": s.id }) as never}
          columns={[
            {
              head: "Device",
              className: "break",
              cell: (s) => (
                <>
                  {s.device}
                  {s.kind === "TOKEN" ? " (API token)" : ""}
                  {s.current ? <strong> · this session</strong> : null}
                </>
              ),
            },
            { head: "Address", className: "nowrap", cell: (s) => s.ip || "—" },
            { head: "Signed in", cell: (s) => utcDateTime(s.createdAt) },
            { head: "Last seen", cell: (s) => utcDateTime(s.lastSeenAt) },
            {
              head: <span className="sr-only">Actions</span>,
              label: "",
              cell: (s) =>
                s.current ? null : (
                  <Form method="post">
                    <CsrfInput />
                    <input type="hidden" name="intent" value="session-end" />
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" className="button small" aria-label={`End the session of ${s.device}`}>
                      End
                    </button>
                  </Form>
                ),
            },
          ]}
        />
        {sessions.length > 1 ? (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="sessions-end-others" />
            <button type="submit" className="button danger">
              End every other session
            </button>
          </Form>
        ) : null}
      </section>
    </main>
  );
}
