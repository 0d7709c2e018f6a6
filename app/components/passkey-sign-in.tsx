import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "@remix-run/react";
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication } from "@simplewebauthn/browser";

async function post(fields: Record<string, string>) {
  const res = await fetch("/login/passkey", { method: "POST", body: new URLSearchParams(fields) });
  const body = (await res.json().catch(() => ({}))) as { error?: string; options?: unknown; redirectTo?: string };
  if (!res.ok) throw new Error(body.error ?? "The passkey could not sign you in.");
  return body;
}

/**
 * Sign in with a passkey (decision 072): a button, and, on the first step, the browser's autofill
 * of the e-mail field (conditional mediation) offering the platform's passkeys.
 */
export function PasskeySignIn({ mode, redirectTo }: { mode: "password-free" | "second-step"; redirectTo: string }) {
  const csrf = useRouteLoaderData<{ csrf: string }>("root")?.csrf ?? "";
  const [supported, setSupported] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  const run = async (autofill: boolean) => {
    const { options } = await post({ csrf, intent: "options", mode });
    const response = await startAuthentication({
      optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"],
      useBrowserAutofill: autofill,
    });
    const done = await post({ csrf, intent: "verify", mode, redirectTo, response: JSON.stringify(response) });
    window.location.assign(done.redirectTo ?? "/");
  };

  useEffect(() => {
    setSupported(browserSupportsWebAuthn());
    if (mode !== "password-free" || started.current) return;
    started.current = true;
    void browserSupportsWebAuthnAutofill().then((ok) => {
      if (ok) run(true).catch(() => {}); // the autofill waits quietly; a button press replaces it
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!supported) return null;
  return (
    <div className="stack">
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError("");
          run(false)
            .catch((e: Error) =>
              setError(e.name === "NotAllowedError" ? "The passkey request was cancelled." : e.message),
            )
            .finally(() => setBusy(false));
        }}
      >
        {mode === "second-step" ? "Use a passkey instead" : "Use a passkey"}
      </button>
    </div>
  );
}
