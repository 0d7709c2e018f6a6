import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import {
  findShopper,
  getPrivacyRequest,
  listPrivacyRequests,
  orderLine,
  requestPrivacy,
  shopperEmail,
} from "~/platform/privacy/privacy.server";
import { appsHolding } from "~/platform/privacy/compliance.server";
import { ERASED_NAME, ERASED_TEXT } from "~/platform/core/erased";
import { ApiError } from "~/platform/core/http.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { Card, DataTable, ErrorAlert, PageHeader, SuccessNotice } from "~/components/page-parts";
import { PrivacyRequestTable } from "~/components/privacy-requests";
import { useShopFormat } from "~/components/shop-format";
import { EmptyState } from "~/components/area-layout";

export const meta: MetaFunction = () => [{ title: "Customer privacy · Admin" }];

/**
 * The shopper is found by a POST (a form with its CSRF token), never by a URL: an e-mail in a query
 * string would be written to every proxy's and server's access log and the browser's history
 * (decision 048). The loader shows the page, the requests and the outcome of an erasure (by request id).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "privacy");
  const url = new URL(request.url);
  const [requests, apps, done] = await Promise.all([
    listPrivacyRequests(context.db, business.id, { limit: 20, offset: 0 }),
    appsHolding(context.db, business.id),
    getPrivacyRequest(context.db, business.id, url.searchParams.get("done")),
  ]);
  return json({
    apps: apps.filter((a) => a.webhookId !== null).map((a) => a.appName),
    requests: requests.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    requestsTotal: requests.total,
    done: done && { kind: done.kind, orders: done.orderCount, reviews: done.reviewCount, apps: done.appsNotified },
  });
}

const INVALID = "Enter an e-mail address, like jane@example.com.";

/** What the page shows for a search: the e-mail as typed, and the shopper's orders and reviews. */
async function found(db: Parameters<typeof findShopper>[0], businessId: string, typed: string) {
  const parsed = shopperEmail.safeParse(typed);
  if (!parsed.success) return { typed: typed.slice(0, 254), invalid: INVALID, shopper: null };
  const shopper = await findShopper(db, businessId, parsed.data);
  return {
    typed: typed.slice(0, 254),
    invalid: null,
    shopper: {
      email: shopper.email,
      orders: shopper.orders.map(orderLine),
      reviews: shopper.reviews.map((r) => ({
        id: r.id,
        productName: r.productName,
        rating: r.rating,
        authorName: r.authorName,
        createdAt: r.createdAt.toISOString(),
      })),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account, business } = await requireMerchant(request, context, "privacy");
  return formAction(request, context, async (form) => {
    const typed = String(form.get("email") ?? "");
    const intent = form.get("intent");
    if (intent === "find") {
      const result = await found(context.db, business.id, typed);
      return json({ ...result, error: null }, result.invalid ? 400 : 200);
    }
    if (intent !== "erase") return json({ error: "Unknown action" }, 400);
    const email = shopperEmail.safeParse(typed);
    if (!email.success) return json({ error: INVALID }, 400);
    try {
      const answer = await requestPrivacy(
        context.db,
        context.env,
        { businessId: business.id, accountId: account.id },
        { email: email.data, kind: "ERASE" },
      );
      return redirect(`/admin/privacy?done=${encodeURIComponent(answer.id)}`);
    } catch (e) {
      // refused (an order still open): the message, with the shopper as they now stand
      if (!(e instanceof ApiError)) throw e;
      return json({ ...(await found(context.db, business.id, typed)), error: e.message }, e.status);
    }
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export default function AdminPrivacy() {
  const { apps, requests, requestsTotal, done } = useLoaderData<typeof loader>();
  const { dates, money } = useShopFormat();
  const data = useActionData<typeof action>();
  const error = data && "error" in data ? data.error : null;
  const searched = data && "shopper" in data ? data : null;
  const typed = searched?.typed ?? "";
  const invalid = searched?.invalid ?? null;
  const shopper = searched?.shopper ?? null;
  const open = shopper?.orders.filter((o) => o.open) ?? [];
  const held = shopper ? shopper.orders.length + shopper.reviews.length : 0;
  return (
    <div className="stack-lg">
      <PageHeader title="Customer privacy" className="page-head">
        When a customer asks what you hold about them, or asks to be forgotten, find them by e-mail here. Export gives
        them their data; erase replaces their name, e-mail, phone and address everywhere the platform keeps them, and
        tells your apps to do the same.
      </PageHeader>
      <ErrorAlert error={error} />
      <SuccessNotice show={!error && done?.kind === "ERASE"}>
        {done
          ? `Erased: ${plural(done.orders, "order")} and ${plural(done.reviews, "review")} now show "${ERASED_NAME}". ${plural(done.apps, "app was", "apps were")} told to erase their copies.`
          : null}
      </SuccessNotice>

      <Form method="post" className="search-form" role="search">
        <CsrfInput />
        <label htmlFor="privacy-email" className="sr-only">
          Customer&apos;s e-mail
        </label>
        <input
          id="privacy-email"
          type="email"
          name="email"
          required
          maxLength={254}
          defaultValue={typed}
          key={typed}
          placeholder="Customer's e-mail, like jane@example.com"
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? "privacy-email-error" : undefined}
        />
        <SubmitButton name="intent" value="find" className="button" busyLabel="Finding…">
          Find
        </SubmitButton>
      </Form>
      {invalid ? (
        <p id="privacy-email-error" className="field-error" role="alert">
          {invalid}
        </p>
      ) : null}

      {shopper ? (
        held === 0 ? (
          <EmptyState title={`Nothing held for ${shopper.email}`}>
            <p>
              No order or review of your shop carries this e-mail, so there is nothing to export or erase. (Reviews
              written without an e-mail cannot be found by it.)
            </p>
          </EmptyState>
        ) : (
          <section className="stack" aria-labelledby="shopper-title">
            <h2 id="shopper-title">
              {shopper.email}: {plural(shopper.orders.length, "order")}, {plural(shopper.reviews.length, "review")}
            </h2>
            {shopper.orders.length ? (
              <>
                <h3>Orders</h3>
                <DataTable
                  rows={shopper.orders}
                  rowKey={(o) => o.id}
                  rowProps={() => ({ "data-testid": "privacy-order" })}
                  columns={[
                    { head: "Order", cell: (o) => <Link to={`/admin/orders/${o.id}`}>#{o.orderNumber}</Link> },
                    { head: "Status", cell: (o) => (o.open ? <strong>{o.status} (open)</strong> : o.status) },
                    { head: "Amount", className: "num", cell: (o) => money(o.amount, o.currency) },
                    { head: "Date", className: "nowrap", cell: (o) => dates.day(o.createdAt) },
                  ]}
                />
              </>
            ) : null}
            {shopper.reviews.length ? (
              <>
                <h3>Reviews</h3>
                <DataTable
                  rows={shopper.reviews}
                  rowKey={(r) => r.id}
                  rowProps={() => ({ "data-testid": "privacy-review" })}
                  columns={[
                    { head: "Product", className: "break", cell: (r) => r.productName },
                    { head: "Rating", cell: (r) => `${r.rating} of 5` },
                    { head: "Author", className: "break", cell: (r) => r.authorName },
                    { head: "Date", className: "nowrap", cell: (r) => dates.day(r.createdAt) },
                  ]}
                />
              </>
            ) : null}

            <div>
              <form method="post" action="/admin/privacy/export.json">
                <CsrfInput />
                <input type="hidden" name="email" value={shopper.email} />
                <button type="submit" className="button">
                  Export data (JSON)
                </button>
              </form>
            </div>

            <Card title="Erase this customer" id="erase-title">
              {open.length ? (
                <p className="alert warning" role="note">
                  {plural(open.length, "order is", "orders are")} still open (
                  {open.map((o) => `#${o.orderNumber} ${o.status}`).join(", ")}). Erasure waits until every order is
                  delivered or cancelled, so you can still fulfil it.
                </p>
              ) : (
                <details className="confirm">
                  <summary className="button danger">Erase…</summary>
                  <div className="stack">
                    <p>This will, permanently:</p>
                    <ul>
                      <li>
                        in {plural(shopper.orders.length, "order")}: replace the name with &ldquo;{ERASED_NAME}&rdquo;,
                        the phone and delivery address with &ldquo;{ERASED_TEXT}&rdquo;, and remove the e-mail and the
                        order notes;
                      </li>
                      <li>
                        in {plural(shopper.reviews.length, "review")}: replace the author&apos;s name with &ldquo;
                        {ERASED_NAME}&rdquo; and remove the e-mail (ratings and comments stay);
                      </li>
                      <li>do the same in the copies kept for webhooks, retries and logs;</li>
                      <li>
                        {apps.length
                          ? `tell ${apps.join(", ")} to erase their copies (customer.redact).`
                          : "no installed app holds orders or reviews, so no app is told."}
                      </li>
                    </ul>
                    <p>Amounts, items, statuses and dates stay for your accounts. This cannot be undone.</p>
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="email" value={shopper.email} />
                      <SubmitButton name="intent" value="erase" className="button danger" busyLabel="Erasing…">
                        Erase permanently
                      </SubmitButton>
                    </Form>
                  </div>
                </details>
              )}
            </Card>
          </section>
        )
      ) : null}

      <Card title="Requests" id="requests-title">
        {requests.length === 0 ? (
          <p className="muted">No privacy requests yet. Every export and erasure is recorded here.</p>
        ) : (
          <>
            <p className="muted small">
              {plural(requestsTotal, "request")}, newest first. E-mails are not kept: only what was done, when and by
              whom.
            </p>
            <PrivacyRequestTable
              rows={requests}
              columns={[
                { head: "When", className: "nowrap", cell: (r) => dates.dateTime(r.createdAt, { zone: true }) },
                { head: "Kind", cell: (r) => (r.kind === "ERASE" ? "Erasure" : "Export") },
                { head: "Orders", className: "num", cell: (r) => r.orderCount },
                { head: "Reviews", className: "num", cell: (r) => r.reviewCount },
                { head: "Apps told", className: "num", cell: (r) => r.appsNotified },
                { head: "By", className: "break", cell: (r) => r.requestedBy },
                { head: "Request", className: "mono small", cell: (r) => r.id },
              ]}
            />
          </>
        )}
      </Card>
    </div>
  );
}
