/**
 * The message catalogue (contract 16): every kind of message, who receives it, whether it is always
 * sent or a notification the reader chooses (those carry List-Unsubscribe), and its words. No server
 * code: the settings pages show the labels.
 */
export const MAIL_KINDS = {
  "account.verify_email": { label: "Address verification", audience: "account", always: true },
  "account.password_reset": { label: "Password reset", audience: "account", always: true },
  "account.new_sign_in": { label: "Sign-in from a new device", audience: "account", always: true },
  "account.second_factor_changed": { label: "Second-factor changes", audience: "account", always: true },
  invitation: { label: "Invitation", audience: "invited", always: true },
  "order.confirmation": { label: "Order confirmation", audience: "shopper", always: true },
  "order.cancelled": { label: "Order cancelled", audience: "shopper", always: true },
  "order.fulfilled": { label: "Order delivered", audience: "shopper", always: true },
  "order.new": { label: "New orders", audience: "MERCHANT", always: false },
  "privacy.done": { label: "Customer privacy requests done", audience: "MERCHANT", always: false },
  "app.review_outcome": {
    label: "App review outcomes (approved or rejected, with the notes)",
    audience: "DEVELOPER",
    always: false,
  },
  "webhook.disabled": { label: "Webhook registrations disabled after failures", audience: "DEVELOPER", always: false },
} as const;

export type MailKind = keyof typeof MAIL_KINDS;

/** The messages a merchant sends their shoppers and may turn off, per kind. */
export const SHOPPER_KINDS = (Object.keys(MAIL_KINDS) as MailKind[]).filter(
  (k) => MAIL_KINDS[k].audience === "shopper",
);

/** The notifications an account of this role may receive and choose. */
export const notificationKindsOf = (role: string) =>
  (Object.keys(MAIL_KINDS) as MailKind[]).filter((k) => !MAIL_KINDS[k].always && MAIL_KINDS[k].audience === role);

export const isMailKind = (v: unknown): v is MailKind => typeof v === "string" && v in MAIL_KINDS;
