import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { businessSettingsSchema, updateBusinessSettings } from "~/platform/accounts/business-settings.server";
import { ApiError, describeZodError, readForm } from "~/platform/core/http.server";
import { CsrfInput } from "~/components/csrf";

export const meta: MetaFunction = () => [{ title: "Settings · Admin" }];

const FIELDS = ["name", "address", "phone", "email", "currency", "locale", "timezone"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

function timeZoneList(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = typeof supported === "function" ? supported("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const values: Values = {
    name: business.name,
    address: business.address,
    phone: business.phone,
    email: business.email,
    currency: business.currency,
    locale: business.locale,
    timezone: business.timezone,
  };
  return json({ values, slug: business.slug, timeZones: timeZoneList() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const values = Object.fromEntries(FIELDS.map((f) => [f, typeof form.get(f) === "string" ? String(form.get(f)) : ""])) as Values;
  const parsed = businessSettingsSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "") as Field;
      if (field && !errors[field]) errors[field] = issue.message;
    }
    return json({ error: describeZodError(parsed.error), errors, values }, 400);
  }
  try {
    await updateBusinessSettings(context.db, business.id, values);
    return redirect("/admin/settings?saved=settings");
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message, errors: {} as Errors, values }, e.status);
    throw e;
  }
}

export default function AdminSettings() {
  const loaded = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const values = data?.values ?? loaded.values;
  const errors: Errors = data?.errors ?? {};
  const busy = navigation.state === "submitting";
  const invalid = (f: Field) => (errors[f] ? { "aria-invalid": true as const, "aria-describedby": `err-${f}` } : {});
  const err = (f: Field) => (errors[f] ? <span id={`err-${f}`} className="field-error small">{errors[f]}</span> : null);
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>Settings</h1>
        <p className="lead">How your business appears to customers, and how money and dates are shown.</p>
      </header>
      {data?.error ? <p className="alert error" role="alert">{data.error}</p> : null}
      {!data?.error && params.get("saved") === "settings" ? <p className="alert success" role="status">Settings saved.</p> : null}

      <Form method="post" className="card stack admin-form" noValidate key={JSON.stringify(loaded.values)}>
        <CsrfInput />
        <h2>Business</h2>
        <label>
          Business name
          <input name="name" defaultValue={values.name} required maxLength={100} {...invalid("name")} />
          {err("name")}
        </label>
        <label>
          Address
          <textarea name="address" defaultValue={values.address} maxLength={300} rows={2} {...invalid("address")} />
          {err("address")}
        </label>
        <div className="grid-2">
          <label>
            Phone
            <input name="phone" type="tel" defaultValue={values.phone} maxLength={40} autoComplete="tel" {...invalid("phone")} />
            {err("phone")}
          </label>
          <label>
            Email
            <input name="email" type="email" defaultValue={values.email} maxLength={254} autoComplete="email" {...invalid("email")} />
            {err("email")}
          </label>
        </div>
        <h2>Regional settings</h2>
        <div className="grid-3">
          <label>
            Currency
            <input name="currency" defaultValue={values.currency} maxLength={3} className="upper" autoCapitalize="characters" spellCheck={false} {...invalid("currency")} />
            <span className="muted small">3-letter ISO code, e.g. USD, EUR</span>
            {err("currency")}
          </label>
          <label>
            Locale
            <input name="locale" defaultValue={values.locale} maxLength={20} spellCheck={false} {...invalid("locale")} />
            <span className="muted small">Language and region, e.g. en-US</span>
            {err("locale")}
          </label>
          <label>
            Time zone
            <input name="timezone" defaultValue={values.timezone} list="time-zones" maxLength={64} spellCheck={false} {...invalid("timezone")} />
            <span className="muted small">e.g. Europe/Paris or UTC</span>
            {err("timezone")}
          </label>
        </div>
        <datalist id="time-zones">
          {loaded.timeZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <p className="muted small">Changing the currency does not convert existing prices; it changes how they are shown.</p>
        <div className="row">
          <button type="submit" className="button primary" disabled={busy}>{busy ? "Saving…" : "Save settings"}</button>
        </div>
      </Form>
    </div>
  );
}
