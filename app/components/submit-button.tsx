import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from "react";

/**
 * A form's submit button with a busy state: while its form is being submitted it says what is
 * happening ("Saving…") with a spinner and aria-busy, and while any form of the page is being
 * submitted every SubmitButton is disabled, so that a second click cannot submit twice. Without
 * JavaScript it is a plain submit button. The done message is the page's: actions redirect with
 * `?saved=…` (or answer data) and the page shows it in a role="status" alert.
 */
export function SubmitButton({
  busyLabel,
  children,
  disabled,
  className = "button",
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & { busyLabel: string; children: ReactNode }) {
  const navigation = useNavigation();
  const ref = useRef<HTMLButtonElement>(null);
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => {
    const button = ref.current;
    const form = button?.form;
    if (!button || !form) return;
    // the button that submitted the form (Enter in a field submits with the form's first button)
    const onSubmit = (event: SubmitEvent) =>
      setSubmitted(
        event.submitter === button || (!event.submitter && form.querySelector('button[type="submit"]') === button),
      );
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, []);
  useEffect(() => {
    if (navigation.state === "idle") setSubmitted(false);
  }, [navigation.state]);
  const pageSubmitting =
    navigation.state !== "idle" && navigation.formMethod != null && navigation.formMethod.toUpperCase() !== "GET";
  const busy = submitted && navigation.state !== "idle";
  return (
    <button
      ref={ref}
      type="submit"
      className={className}
      disabled={disabled || pageSubmitting}
      aria-busy={busy || undefined}
      data-busy={busy || undefined}
      {...rest}
    >
      {busy ? (
        <>
          <span className="busy-spinner" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}
