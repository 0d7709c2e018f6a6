import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { merchantBilling } from "~/platform/billing/earnings.server";
import { cancelSubscription } from "~/platform/billing/subscriptions.server";
import { planPriceText } from "~/platform/shapes/pricing";
import { formatMoney } from "~/platform/core/money";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { DataTable, ErrorAlert, PageHeader, SuccessNotice } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";
import { dateFormatter } from "~/platform/core/dates";
import { businessNow } from "~/platform/core/clock.server";

export const meta: MetaFunction = () => [{ title: "Billing · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "billing");
  const { subscriptions, invoices } = await merchantBilling(context.db, business.id);
  const locale = business.locale;
  const dates = dateFormatter(locale, business.timezone);
  return json({
    subscriptions: subscriptions.map(({ sub, appName }) => {
      const money = (m: number) => formatMoney(m, sub.plan.currency, locale);
      return {
        id: sub.id,
        appName,
        planName: sub.plan.name,
        price: planPriceText(sub.plan, locale),
        status: sub.status,
        test: sub.test,
        kind: sub.kind,
        trialEndsAt: sub.trialEndsAt?.toISOString() ?? null,
        // on the business's clock: a sandbox moved ahead sees its trial over
        trialEnded: sub.trialEndsAt ? sub.trialEndsAt.getTime() <= businessNow(business).getTime() : false,
        nextChargeAt: sub.kind === "RECURRING" ? (sub.currentPeriodEnd?.toISOString() ?? null) : null,
        cap: sub.usageCap,
        used: sub.usageBalance,
        capText: sub.usageCap !== null ? money(sub.usageCap) : null,
        usedText: money(sub.usageBalance),
      };
    }),
    invoices: invoices.map(({ invoice, lines, totals }) => ({
      id: invoice.id,
      month: invoice.month,
      test: invoice.test,
      // the ledger's sums (decision 050)
      totals: totals.map((t) => formatMoney(t.amount, t.currency, locale)),
      lines: lines.map(({ line, appName, amount }) => ({
        id: line.id,
        appName,
        description: line.description,
        kind: line.kind,
        period:
          line.periodStart && line.periodEnd
            ? `${dates.day(line.periodStart)} – ${dates.day(line.periodEnd)}`
            : dates.day(line.createdAt),
        amount: formatMoney(amount.amount, amount.currency, locale),
        minor: amount.amount,
      })),
    })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "billing");
  return formAction(request, context, async (form) => {
    if (form.get("intent") !== "cancel") return json({ error: "Unknown action" }, 400);
    await cancelSubscription(
      context.db,
      { businessId: business.id },
      String(form.get("subscriptionId") ?? ""),
      "MERCHANT",
    );
    return redirect("/admin/billing?saved=cancelled");
  });
}

type Sub = ReturnType<typeof useLoaderData<typeof loader>>["subscriptions"][number];

function UsageBar({ s }: { s: Sub }) {
  if (s.cap === null) return null;
  const pct = s.cap > 0 ? Math.min(100, Math.round((s.used / s.cap) * 100)) : 0;
  return (
    <div className="stack-sm">
      <span className="small" id={`usage-${s.id}`}>
        Usage this period: <strong data-testid="usage-used">{s.usedText}</strong> of{" "}
        <span data-testid="usage-cap">{s.capText}</span>
      </span>
      <progress max={100} value={pct} aria-labelledby={`usage-${s.id}`} className="usage-bar">
        {pct}%
      </progress>
    </div>
  );
}

function SubscriptionCard({ s }: { s: Sub }) {
  const { dates } = useShopFormat();
  return (
    <li className="card stack" data-testid="subscription">
      <div className="row wrap between">
        <h3>
          {s.appName} · {s.planName}
        </h3>
        <span className={`badge ${s.status === "ACTIVE" ? "success" : "info"}`}>{s.status.toLowerCase()}</span>
      </div>
      {s.test ? <p className="badge info">Test charge: on test invoices only, never paid</p> : null}
      <dl className="facts">
        <dt>Price</dt>
        <dd>{s.price}</dd>
        {s.trialEndsAt ? (
          <>
            <dt>{s.trialEnded ? "Trial ended" : "Trial ends"}</dt>
            <dd>{dates.day(s.trialEndsAt)}</dd>
          </>
        ) : null}
        {s.nextChargeAt && s.status === "ACTIVE" ? (
          <>
            <dt>Next charge</dt>
            <dd>{dates.day(s.nextChargeAt)}</dd>
          </>
        ) : null}
      </dl>
      <UsageBar s={s} />
      {s.status === "PENDING" ? (
        <Link to={`/billing/confirm/${s.id}`} className="button small">
          Review request
        </Link>
      ) : s.kind === "RECURRING" ? (
        <details className="confirm compact">
          <summary>Cancel…</summary>
          <p className="muted small">
            Cancel {s.planName} of {s.appName}? This period is billed to the day, usage included.
          </p>
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="subscriptionId" value={s.id} />
            <SubmitButton name="intent" value="cancel" className="button danger small" busyLabel="Cancelling…">
              Cancel subscription
            </SubmitButton>
          </Form>
        </details>
      ) : null}
    </li>
  );
}

export default function AdminBilling() {
  const { subscriptions, invoices } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="stack-lg">
      <PageHeader title="Billing" className="page-head">
        What your apps charge: subscriptions you approved, usage so far, and your monthly invoices.
      </PageHeader>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data?.error && params.get("saved") === "cancelled"}>
        The subscription was cancelled.
      </SuccessNotice>

      <section className="stack" aria-labelledby="subs-title">
        <h2 id="subs-title">Subscriptions</h2>
        {subscriptions.length === 0 ? (
          <p className="card muted">No app charges you anything. Paid apps ask for your approval first.</p>
        ) : (
          <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {subscriptions.map((s) => (
              <SubscriptionCard key={s.id} s={s} />
            ))}
          </ul>
        )}
      </section>

      <section className="stack" aria-labelledby="invoices-title">
        <h2 id="invoices-title">Invoices</h2>
        {invoices.length === 0 ? (
          <p className="card muted">No invoices yet. Charges are invoiced at the end of each billing period.</p>
        ) : (
          invoices.map((inv) => (
            <article key={inv.id} className="card stack" data-testid="invoice" aria-label={`Invoice ${inv.month}`}>
              <div className="row wrap between">
                <h3>
                  {inv.month}{" "}
                  {inv.test ? (
                    <span className="badge info" data-testid="test-invoice">
                      Test invoice: never paid
                    </span>
                  ) : null}
                </h3>
                <strong data-testid="invoice-total">{inv.totals.join(" + ")}</strong>
              </div>
              <DataTable
                rows={inv.lines}
                rowKey={(l) => l.id}
                rowProps={(l) => ({ "data-testid": "invoice-line", "data-minor": String(l.minor) })}
                columns={[
                  { head: "App", className: "break", cell: (l) => l.appName },
                  { head: "Charge", className: "break", cell: (l) => l.description },
                  { head: "Period", className: "nowrap", cell: (l) => l.period },
                  { head: "Amount", className: "nowrap num", cell: (l) => l.amount },
                ]}
              />
            </article>
          ))
        )}
      </section>
    </div>
  );
}
