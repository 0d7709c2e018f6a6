import { Form } from "@remix-run/react";
import { CATEGORIES, CATEGORY_LABELS, EVENT_NAMES, EVENTS, SCOPES, SCOPE_NAMES } from "~/platform/apps/catalog";
import { CsrfInput } from "./csrf";

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
};

export const emptyApp: AppFormValues = {
  name: "", slug: "", description: "", category: "other", scopes: [], redirectUrl: "", webhookUrl: "", webhookEvents: [], iconUrl: "", screenshots: [], version: "1.0.0",
};

/** The create and edit form of an app. Works without JavaScript. */
export function AppForm({ values, mode, disabled, submitLabel }: { values: AppFormValues; mode: "create" | "edit"; disabled?: boolean; submitLabel: string }) {
  const subscribable = EVENT_NAMES.filter((e) => e !== "webhook.test" && e !== "business.data_erasure");
  return (
    <Form method="post" className="stack app-form">
      <CsrfInput />
      <input type="hidden" name="intent" value={mode === "create" ? "create" : "update"} />
      <fieldset disabled={disabled} className="stack">
        <div className="grid-2">
          <label>
            Name
            <input name="name" defaultValue={values.name} required maxLength={100} />
          </label>
          {mode === "create" ? (
            <label>
              Slug <span className="muted small">(lowercase, digits, hyphens; cannot change later)</span>
              <input name="slug" defaultValue={values.slug} required minLength={3} maxLength={50} pattern="[a-z0-9]+(-[a-z0-9]+)*" />
            </label>
          ) : (
            <label>
              Version
              <input name="version" defaultValue={values.version} required />
            </label>
          )}
        </div>
        <label>
          Description <span className="muted small">(shown on marketplace cards)</span>
          <textarea name="description" defaultValue={values.description} required maxLength={500} rows={3} />
        </label>
        <div className="grid-2">
          <label>
            Category
            <select name="category" defaultValue={values.category}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>{CATEGORY_LABELS[c]}</option>
              ))}
            </select>
          </label>
          {mode === "create" ? (
            <label>
              Version
              <input name="version" defaultValue={values.version} required />
            </label>
          ) : <span />}
        </div>
        <fieldset className="checks">
          <legend>Scopes <span className="muted small">(ask only for what you need)</span></legend>
          {SCOPE_NAMES.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" name="scopes" value={s} defaultChecked={values.scopes.includes(s)} />
              <span><code>{s}</code> <span className="muted">— {SCOPES[s]}</span></span>
            </label>
          ))}
        </fieldset>
        <label>
          OAuth redirect URL
          <input name="redirectUrl" type="url" defaultValue={values.redirectUrl} required placeholder="https://your-app.example/oauth/callback" />
        </label>
        <label>
          Webhook URL <span className="muted small">(optional; also the base of hook calls)</span>
          <input name="webhookUrl" type="url" defaultValue={values.webhookUrl ?? ""} placeholder="https://your-app.example/webhooks" />
        </label>
        <fieldset className="checks columns">
          <legend>Webhook events <span className="muted small">(delivered when the installation has the scope)</span></legend>
          {subscribable.map((e) => (
            <label key={e} className="check">
              <input type="checkbox" name="webhookEvents" value={e} defaultChecked={values.webhookEvents.includes(e)} />
              <span><code>{e}</code> <span className="muted small">{EVENTS[e]}</span></span>
            </label>
          ))}
        </fieldset>
        <label>
          Icon URL <span className="muted small">(optional)</span>
          <input name="iconUrl" type="url" defaultValue={values.iconUrl ?? ""} />
        </label>
        <label>
          Screenshots <span className="muted small">(up to 5 image URLs, one per line)</span>
          <textarea name="screenshots" defaultValue={values.screenshots.join("\n")} rows={3} />
        </label>
        <div>
          <button type="submit" className="button primary">{submitLabel}</button>
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
    screenshots: text("screenshots").split(/\s*\n\s*/).filter(Boolean),
    version: text("version"),
  };
}
