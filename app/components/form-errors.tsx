import { useEffect, useRef, type MouseEvent, type ReactNode } from "react";

/**
 * What a page form shows when its action refuses the input: one message per field, each a sentence
 * that starts with the field's label, and messages about the form as a whole. Built on the server
 * by app/platform/core/form-errors.server.ts.
 */
import type { FormErrors } from "~/platform/core/form-errors.server";
export type { FormErrors };

/** The id of a field's control: the summary links to it. */
export const fieldId = (name: string) => `field-${name}`;
const errorId = (name: string) => `err-${name}`;

/**
 * The attributes of a field's control: its id, and when it has an error aria-invalid and
 * aria-describedby pointing at the message (plus any description it already has).
 */
export function fieldProps(name: string, errors: FormErrors | null | undefined, describedBy?: string) {
  const message = errors?.fields[name];
  const ids = [describedBy, message ? errorId(name) : undefined].filter(Boolean).join(" ");
  return {
    id: fieldId(name),
    ...(message ? { "aria-invalid": true as const } : {}),
    ...(ids ? { "aria-describedby": ids } : {}),
  };
}

/** The message next to a field (nothing when the field is fine). */
export function FieldError({ name, errors }: { name: string; errors: FormErrors | null | undefined }) {
  const message = errors?.fields[name];
  return message ? (
    <span id={errorId(name)} className="field-error" data-testid={`error-${name}`}>
      {message}
    </span>
  ) : null;
}

function focusField(event: MouseEvent<HTMLAnchorElement>, name: string) {
  const target = document.getElementById(fieldId(name));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

/**
 * The summary at the top of a form: how many problems, each one a link to its field (in the
 * order of `order`, the form's fields from top to bottom). It takes the focus whenever a new set of
 * errors arrives, so a failed submit moves keyboard and screen-reader users to it.
 */
export function ErrorSummary({
  errors,
  order = [],
}: {
  errors: FormErrors | null | undefined;
  order?: readonly string[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  const fieldNames = errors
    ? [...order.filter((f) => errors.fields[f]), ...Object.keys(errors.fields).filter((f) => !order.includes(f))]
    : [];
  const count = fieldNames.length + (errors?.form.length ?? 0);
  useEffect(() => {
    if (errors && count > 0) ref.current?.focus();
  }, [errors, count]);
  if (!errors || count === 0) return null;
  return (
    <div
      ref={ref}
      className="error-summary"
      role="alert"
      tabIndex={-1}
      aria-labelledby="error-summary-title"
      data-testid="error-summary"
    >
      <h2 id="error-summary-title">{count === 1 ? "There is a problem" : `There are ${count} problems`}</h2>
      <ul>
        {errors.form.map((m, i) => (
          <li key={`form-${i}`}>{m}</li>
        ))}
        {fieldNames.map((f) => (
          <li key={f}>
            <a href={`#${fieldId(f)}`} onClick={(e) => focusField(e, f)}>
              {errors.fields[f]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A labelled control with its error message under it: `.field` > label (the text, then the control)
 * and the FieldError of `name`. The control carries its own `fieldProps` (id, aria-invalid). A `hint`
 * stands after the label text, small and muted, in brackets: "Icon URL (optional)".
 */
export function Field({
  name,
  label,
  hint,
  errors,
  children,
}: {
  name: string;
  label: ReactNode;
  hint?: string;
  errors: FormErrors | null | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label>
        {hint ? (
          <span>
            {label} <span className="muted small">({hint})</span>
          </span>
        ) : (
          label
        )}
        {children}
      </label>
      <FieldError name={name} errors={errors} />
    </div>
  );
}
