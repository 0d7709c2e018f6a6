import { useState } from "react";
import { useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";

async function post(fields: Record<string, string>) {
  const res = await fetch("/account/security/passkey", { method: "POST", body: new URLSearchParams(fields) });
  const body = (await res.json().catch(() => ({}))) as { error?: string; options?: unknown };
  if (!res.ok) throw new Error(body.error ?? "The passkey could not be added.");
  return body;
}

/** "Add a passkey": a name, then the browser's own dialog (decision 072). */
export function PasskeyRegister() {
  const csrf = useRouteLoaderData<{ csrf: string }>("root")?.csrf ?? "";
  const revalidator = useRevalidator();
  const [name, setName] = useState("");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const add = async () => {
    const { options } = await post({ csrf, intent: "options" });
    const response = await startRegistration({
      optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"],
    });
    await post({ csrf, intent: "verify", name: name || "Passkey", response: JSON.stringify(response) });
    setName("");
    setMessage("Passkey added.");
    revalidator.revalidate();
  };
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (!browserSupportsWebAuthn()) return setMessage("This browser cannot make passkeys.");
        setBusy(true);
        setMessage("");
        add()
          .catch((err: Error) =>
            setMessage(err.name === "NotAllowedError" ? "The passkey request was cancelled." : err.message),
          )
          .finally(() => setBusy(false));
      }}
    >
      <label>
        Passkey name
        <input
          name="passkeyName"
          value={name}
          maxLength={60}
          placeholder="My laptop"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {busy ? "Waiting for the browser…" : "Add a passkey"}
      </button>
      {message ? <p role="status">{message}</p> : null}
    </form>
  );
}
