import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { ApiError } from "~/platform/core/http.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { setRequireSecondFactor } from "~/platform/accounts/business-security.server";
import { businessSettingsSchema, updateBusinessSettings } from "~/platform/accounts/business-settings.server";
import { messageFormErrors, zodFormErrors } from "~/platform/core/form-errors.server";
import { CsrfInput } from "~/components/csrf";
import { ErrorSummary, FieldError, fieldProps } from "~/components/form-errors";
import { SubmitButton } from "~/components/submit-button";
import { PageHeader, SuccessNotice } from "~/components/page-parts";
import { SHOP_KINDS, shopDescription } from "~/platform/accounts/shop-words";

export const meta: MetaFunction = () => [{ title: "Settings · Admin" }];

const FIELDS = [
  "name",
  "type",
  "metaDescription",
  "address",
  "phone",
  "email",
  "currency",
  "locale",
  "timezone",
] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const LABELS: Record<Field, string> = {
  name: "Business name",
  type: "Kind of shop",
  metaDescription: "Description for search engines",
  address: "Address",
  phone: "Phone",
  email: "Email",
  currency: "Currency",
  locale: "Locale",
  timezone: "Time zone",
};
/** The form's values as typed (given back with the errors). */
const valuesOf = (form: FormData) =>
  Object.fromEntries(FIELDS.map((f) => [f, typeof form.get(f) === "string" ? String(form.get(f)) : ""])) as Values;
/** A refusal of the domain, next to its field, with what was typed. */
const refused = {
  error: (e: ApiError, form: FormData) => ({ errors: messageFormErrors(e.message, LABELS), values: valuesOf(form) }),
};

function timeZoneList(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = typeof supported === "function" ? supported("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business, member } = await requireMerchant(request, context, "settings");
  const values: Values = {
    name: business.name,
    type: business.type,
    metaDescription: business.metaDescription,
    address: business.address,
    phone: business.phone,
    email: business.email,
    currency: business.currency,
    locale: business.locale,
    timezone: business.timezone,
  };
  return json({
    values,
    slug: business.slug,
    timeZones: timeZoneList(),
    descriptionDefault: shopDescription({ ...business, metaDescription: "" }),
    // the sign-in rule (contract 18): shown to every member of the page, changed by the owner only
    security: {
      requireSecondFactor: business.requireSecondFactor,
      owner: member.owner,
      ownerHasFactor: account.hasSecondFactor,
    },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account, business, member } = await requireMerchant(request, context, "settings");
  return formAction(request, context, refused, async (form) => {
    if (form.get("intent") === "security") {
      // the same rule as PUT /merchant/security: the owner only, and only with a factor of their own
      try {
        await setRequireSecondFactor(context.db, member, {
          requireSecondFactor: form.get("requireSecondFactor") === "on",
          ip: clientAddress(request),
        });
      } catch (e) {
        if (e instanceof ApiError) return json({ securityError: e.message }, e.status);
        throw e;
      }
      return redirect("/admin/settings?saved=security");
    }
    const values = valuesOf(form);
    // a form without the kind or the description (an older page) leaves them as they are
    const input = {
      ...values,
      type: form.has("type") ? values.type : undefined,
      metaDescription: form.has("metaDescription") ? values.metaDescription : undefined,
    };
    const parsed = businessSettingsSchema.safeParse(input);
    if (!parsed.success) return json({ errors: zodFormErrors(parsed.error, LABELS), values }, 400);
    await updateBusinessSettings(context.db, business.id, input, { account, ip: clientAddress(request) });
    return redirect("/admin/settings?saved=settings");
  });
}

export default function AdminSettings() {
  const loaded = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const values = (data && "values" in data ? data.values : null) ?? loaded.values;
  const errors = (data && "errors" in data ? data.errors : null) ?? null;
  const securityError = data && "securityError" in data ? data.securityError : null;
  const invalid = (f: Field, describedBy?: string) => fieldProps(f, errors, describedBy);
  const err = (f: Field) => <FieldError name={f} errors={errors} />;
  return (
    <div className="stack-lg">
      <PageHeader title="Settings" className="page-head">
        How your business appears to customers, and how money and dates are shown.
      </PageHeader>
      <ErrorSummary errors={errors} order={FIELDS} />
      <SuccessNotice show={!data && params.get("saved") === "settings"}>Settings saved.</SuccessNotice>
      <SuccessNotice show={!data && params.get("saved") === "security"}>Sign-in rule saved.</SuccessNotice>

      <Form method="post" className="card stack admin-form" noValidate key={JSON.stringify(loaded.values)}>
        <CsrfInput />
        <h2>Business</h2>
        <div className="field">
          <label>
            Business name
            <input name="name" defaultValue={values.name} required maxLength={100} {...invalid("name")} />
          </label>
          {err("name")}
        </div>
        <div className="field">
          <label>
            Kind of shop
            <select name="type" defaultValue={values.type} {...invalid("type", "help-type")}>
              {SHOP_KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
            <span id="help-type" className="muted small">
              The storefront's words: a shop lists its &ldquo;Products&rdquo;, a restaurant its &ldquo;Menu&rdquo;.
            </span>
          </label>
          {err("type")}
        </div>
        <div className="field">
          <label>
            Description for search engines
            <textarea
              name="metaDescription"
              defaultValue={values.metaDescription}
              rows={2}
              placeholder={loaded.descriptionDefault}
              {...invalid("metaDescription", "help-description")}
            />
            <span id="help-description" className="muted small">
              One or two sentences shown under your shop&apos;s name in search results (at most 300 characters). Left
              empty: &ldquo;{loaded.descriptionDefault}&rdquo;
            </span>
          </label>
          {err("metaDescription")}
        </div>
        <div className="field">
          <label>
            Address
            <textarea name="address" defaultValue={values.address} maxLength={300} rows={2} {...invalid("address")} />
          </label>
          {err("address")}
        </div>
        <div className="grid-2">
          <div className="field">
            <label>
              Phone
              <input
                name="phone"
                type="tel"
                defaultValue={values.phone}
                maxLength={40}
                autoComplete="tel"
                {...invalid("phone")}
              />
            </label>
            {err("phone")}
          </div>
          <div className="field">
            <label>
              Email
              <input
                name="email"
                type="email"
                defaultValue={values.email}
                maxLength={254}
                autoComplete="email"
                {...invalid("email")}
              />
            </label>
            {err("email")}
          </div>
        </div>
        <h2>Regional settings</h2>
        <div className="grid-3">
          <div className="field">
            <label>
              Currency
              <input
                name="currency"
                defaultValue={values.currency}
                maxLength={3}
                className="upper"
                autoCapitalize="characters"
                spellCheck={false}
                {...invalid("currency", "help-currency")}
              />
              <span id="help-currency" className="muted small">
                3-letter ISO code, e.g. USD, EUR
              </span>
            </label>
            {err("currency")}
          </div>
          <div className="field">
            <label>
              Locale
              <input
                name="locale"
                defaultValue={values.locale}
                maxLength={20}
                spellCheck={false}
                {...invalid("locale", "help-locale")}
              />
              <span id="help-locale" className="muted small">
                Language and region, e.g. en-US
              </span>
            </label>
            {err("locale")}
          </div>
          <div className="field">
            <label>
              Time zone
              <input
                name="timezone"
                defaultValue={values.timezone}
                list="time-zones"
                maxLength={64}
                spellCheck={false}
                {...invalid("timezone", "help-timezone")}
              />
              <span id="help-timezone" className="muted small">
                e.g. Europe/Paris or UTC
              </span>
            </label>
            {err("timezone")}
          </div>
        </div>
        <datalist id="time-zones">
          {loaded.timeZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <p className="muted small">
          Changing the currency does not convert existing prices; it changes how they are shown.
        </p>
        <div className="row">
          <SubmitButton className="button primary" busyLabel="Saving…">
            Save settings
          </SubmitButton>
        </div>
      </Form>

      <SignInRule {...loaded.security} error={securityError} />
    </div>
  );
}

/** "Require a second factor of every member": the owner's switch; the other members see the rule. */
function SignInRule({
  requireSecondFactor,
  owner,
  ownerHasFactor,
  error,
}: {
  requireSecondFactor: boolean;
  owner: boolean;
  ownerHasFactor: boolean;
  error: string | null;
}) {
  return (
    <section className="card stack" aria-labelledby="sign-in-rule">
      <h2 id="sign-in-rule">Sign-in</h2>
      {owner ? (
        <Form method="post" className="stack" key={String(requireSecondFactor)}>
          <CsrfInput />
          <input type="hidden" name="intent" value="security" />
          <label className="check">
            <input
              type="checkbox"
              name="requireSecondFactor"
              defaultChecked={requireSecondFactor}
              aria-describedby="sign-in-rule-help"
              aria-invalid={error ? true : undefined}
            />
            Require a second factor of every member
          </label>
          <p id="sign-in-rule-help" className="muted small">
            Members without an authenticator app or a passkey are sent to set one up before they can open any other
            page, and their API calls are refused until they do.
            {ownerHasFactor ? null : (
              <>
                {" "}
                You need one yourself first: <a href="/account/security">set it up on your Security page</a>.
              </>
            )}
          </p>
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="row">
            <SubmitButton className="button" busyLabel="Saving…">
              Save sign-in rule
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <p data-testid="sign-in-rule">
          {requireSecondFactor
            ? "Every member must sign in with a second factor (an authenticator app or a passkey)."
            : "A second factor is up to each member."}{" "}
          Only the business&apos;s owner can change this.
        </p>
      )}
    </section>
  );
}
