import { useState } from "react";

/** Copies a value to the clipboard and says so. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          setCopied(false);
        }
      }}
    >
      {copied ? "Copied ✓" : label}
    </button>
  );
}

/** A value in `<code>` with its Copy button beside it (a `.secret` one when it is shown only once). */
export function CopyableCode({ value, testId, secret }: { value: string; testId?: string; secret?: boolean }) {
  return (
    <>
      <code className={secret ? "secret" : undefined} data-testid={testId}>
        {value}
      </code>{" "}
      <CopyButton value={value} />
    </>
  );
}
