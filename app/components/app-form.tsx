import { Form } from "@remix-run/react";
import {
  CATEGORIES,
  CATEGORY_LABELS,
  EVENTS,
  SCOPES,
  SCOPE_NAMES,
  SUBSCRIBABLE_EVENTS,
} from "~/platform/shapes/app-catalog";
import { CsrfInput } from "./csrf";
import { ErrorSummary, Field, FieldError, fieldProps, type FormErrors } from "./form-errors";
import { SubmitButton } from "./submit-button";

export type AppFormValues = {
  name: string;
  slug?: string;
  description: string;
  category: string;
  scopes: string[];
  redirectUrl: string;
  webhookUrl: string | null;
  webhookEvents: string[];
  iconUrl: string | null;
  screenshots: string[];
  version: string;
  /** the pricing plans (contract 13) as the app record shows them, or the text typed when it did not parse */
  pricing?: unknown;
};

export const emptyApp: AppFormValues = {
  name: "",
  slug: "",
  description: "",
  category: "other",
  scopes: [],
  redirectUrl: "",
  webhookUrl: "",
  webhookEvents: [],
  iconUrl: "",
  screenshots: [],
  version: "1.0.0",
};

/** The label of each field, as the form shows it; error messages start with it (never `redirectUrl:`). */
export const APP_LABELS = {
  name: "Name",
  slug: "Slug",
  version: "Version",
  description: "Description",
  category: "Category",
  scopes: "Scopes",
  redirectUrl: "OAuth redirect URL",
  webhookUrl: "Webhook URL",
  webhookEvents: "Webhook events",
  iconUrl: "Icon URL",
  screenshots: "Screenshots",
  pricing: "Pricing plans",
  manifest: "Manifest",
} as const;
const APP_FIELD_ORDER = Object.keys(APP_LABELS);

/** The create and edit form of an app, with every error at once next to its field. Works without JavaScript. */
export function AppForm({
  values,
  mode,
  disabled,
  submitLabel,
  errors,
  withPricing = true,
}: {
  values: AppFormValues;
  mode: "create" | "edit";
  disabled?: boolean;
  /** the pricing plans are the app ADMIN's (contract 17): a DEVELOPER's form leaves them out */
  withPricing?: boolean;
  submitLabel: string;
  errors?: FormErrors | null;
}) {
  const subscribable = SUBSCRIBABLE_EVENTS;
  const field = (name: keyof typeof APP_LABELS, describedBy?: string) => fieldProps(name, errors, describedBy);
  const error = (name: keyof typeof APP_LABELS) => <FieldError name={name} errors={errors} />;
  return (
    <Form method="post" className="stack app-form" noValidate>
      <ErrorSummary errors={errors} order={APP_FIELD_ORDER} />
      <CsrfInput />
      <input type="hidden" name="intent" value={mode === "create" ? "create" : "update"} />
      <fieldset disabled={disabled} className="stack">
        <div className="grid-2">
          <Field name="name" label={APP_LABELS.name} errors={errors}>
            <input name="name" defaultValue={values.name} required maxLength={100} {...field("name")} />
          </Field>
          {mode === "create" ? (
            <Field
              name="slug"
              label={APP_LABELS.slug}
              hint="lowercase, digits, hyphens; cannot change later"
              errors={errors}
            >
              <input
                name="slug"
                defaultValue={values.slug}
                required
                minLength={3}
                maxLength={50}
                pattern="[a-z0-9]+(-[a-z0-9]+)*"
                {...field("slug")}
              />
            </Field>
          ) : (
            <Field name="version" label={APP_LABELS.version} errors={errors}>
              <input name="version" defaultValue={values.version} required {...field("version")} />
            </Field>
          )}
        </div>
        <Field name="description" label={APP_LABELS.description} hint="shown on marketplace cards" errors={errors}>
          <textarea
            name="description"
            defaultValue={values.description}
            required
            maxLength={500}
            rows={3}
            {...field("description")}
          />
        </Field>
        <div className="grid-2">
          <Field name="category" label={APP_LABELS.category} errors={errors}>
            <select name="category" defaultValue={values.category} {...field("category")}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          </Field>
          {mode === "create" ? (
            <Field name="version" label={APP_LABELS.version} errors={errors}>
              <input name="version" defaultValue={values.version} required {...field("version")} />
            </Field>
          ) : (
            <span />
          )}
        </div>
        <fieldset className="checks" {...field("scopes")} tabIndex={-1}>
          <legend>
            {APP_LABELS.scopes} <span className="muted small">(ask only for what you need)</span>
          </legend>
          {error("scopes")}
          {SCOPE_NAMES.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" name="scopes" value={s} defaultChecked={values.scopes.includes(s)} />
              <span>
                <code>{s}</code> <span className="muted">— {SCOPES[s]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field name="redirectUrl" label={APP_LABELS.redirectUrl} errors={errors}>
          <input
            name="redirectUrl"
            type="url"
            defaultValue={values.redirectUrl}
            required
            placeholder="https://your-app.example/oauth/callback"
            {...field("redirectUrl")}
          />
        </Field>
        <Field
          name="webhookUrl"
          label={APP_LABELS.webhookUrl}
          hint="optional; also the base of hook calls"
          errors={errors}
        >
          <input
            name="webhookUrl"
            type="url"
            defaultValue={values.webhookUrl ?? ""}
            placeholder="https://your-app.example/webhooks"
            {...field("webhookUrl")}
          />
        </Field>
        <fieldset className="checks columns" {...field("webhookEvents")} tabIndex={-1}>
          <legend>
            {APP_LABELS.webhookEvents}{" "}
            <span className="muted small">(delivered when the installation has the scope)</span>
          </legend>
          {error("webhookEvents")}
          {subscribable.map((e) => (
            <label key={e} className="check">
              <input type="checkbox" name="webhookEvents" value={e} defaultChecked={values.webhookEvents.includes(e)} />
              <span>
                <code>{e}</code> <span className="muted small">{EVENTS[e]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field name="iconUrl" label={APP_LABELS.iconUrl} hint="optional" errors={errors}>
          <input name="iconUrl" type="url" defaultValue={values.iconUrl ?? ""} {...field("iconUrl")} />
        </Field>
        <Field
          name="screenshots"
          label={APP_LABELS.screenshots}
          hint="up to 5 image URLs, one per line"
          errors={errors}
        >
          <textarea
            name="screenshots"
            defaultValue={values.screenshots.join("\n")}
            rows={3}
            {...field("screenshots")}
          />
        </Field>
        {withPricing ? (
          <Field
            name="pricing"
            label={APP_LABELS.pricing}
            hint='JSON, money in minor units: [{"id": "pro", "name": "Pro", "kind": "RECURRING", "price": {"amount": 999, "currency": "USD"}, "interval": "EVERY_30_DAYS", "trialDays": 14}]. On an approved app a change takes effect when the update is approved; see Docs → Charging for your app.'
            errors={errors}
          >
            <textarea
              name="pricing"
              className="code"
              defaultValue={
                typeof values.pricing === "string" ? values.pricing : JSON.stringify(values.pricing ?? [], null, 2)
              }
              rows={6}
              {...field("pricing")}
            />
          </Field>
        ) : null}
        <div>
          <SubmitButton className="button primary" busyLabel={mode === "create" ? "Creating the app…" : "Saving…"}>
            {submitLabel}
          </SubmitButton>
        </div>
      </fieldset>
    </Form>
  );
}

/** Turns the form into the JSON the API takes, so both go through one schema. */
export function appFormToInput(form: FormData, mode: "create" | "edit") {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const optional = (name: string) => (text(name) === "" ? null : text(name));
  return {
    name: text("name"),
    ...(mode === "create" ? { slug: text("slug") } : {}),
    description: text("description"),
    category: text("category"),
    scopes: form.getAll("scopes").map(String),
    redirectUrl: text("redirectUrl"),
    webhookUrl: optional("webhookUrl"),
    webhookEvents: form.getAll("webhookEvents").map(String),
    iconUrl: optional("iconUrl"),
    screenshots: text("screenshots")
      .split(/\s*\n\s*/)
      .filter(Boolean),
    version: text("version"),
    pricing: parsedOrText(text("pricing") || "[]"),
  };
}

/** The JSON typed in a field, or the text itself when it does not parse (the schema then names the field). */
function parsedOrText(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return t;
  }
}
