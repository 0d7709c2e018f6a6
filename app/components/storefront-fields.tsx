/**
 * The field errors of a storefront form (the checkout, the review form): each control is
 * `<form>-<name>` and its message `<form>-<name>-error`, so that a refused field is announced with
 * its message (aria-invalid, aria-describedby) and the message stands under it.
 */
export function storefrontFieldErrors<F extends string>(form: string, errors: Partial<Record<F, string>>) {
  const messageId = (f: F) => `${form}-${f}-error`;
  return {
    /** The attributes of field `f`'s control: aria-invalid and aria-describedby when it was refused. */
    invalid: (f: F) => (errors[f] ? { "aria-invalid": true as const, "aria-describedby": messageId(f) } : {}),
    /** The message under field `f`, or nothing when it is fine. */
    fieldError: (f: F) =>
      errors[f] ? (
        <p id={messageId(f)} className="sf-field-error">
          {errors[f]}
        </p>
      ) : null,
  };
}
