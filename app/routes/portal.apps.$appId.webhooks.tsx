import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { parsePagination, type ApiError } from "~/platform/core/http.server";
import {
  appDeliveries,
  appRegistrations,
  redeliverForApp,
  testRegistrationForApp,
} from "~/platform/webhooks/developer-view.server";
import { isListening } from "~/platform/devtools/relay.server";
import { serializeDelivery } from "~/platform/webhooks/registrations.server";
import { EmptyState } from "~/components/area-layout";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { AppPageHeader, DataTable, SuccessNotice, utcDateTime } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Webhooks${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

const fmt = (iso: string | null) => utcDateTime(iso, true);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const url = new URL(request.url);
  const registrations = await appRegistrations(context.db, app.id);
  const selected = url.searchParams.get("webhook") ?? registrations[0]?.webhook.id ?? null;
  let page = { page: 1, limit: 20, offset: 0 };
  try {
    page = parsePagination(url, { limit: 20, max: 100 });
  } catch {
    /* fall back to the first page */
  }
  const log =
    selected && registrations.some((r) => r.webhook.id === selected)
      ? await appDeliveries(context.db, app.id, selected, page)
      : null;
  return json({
    app: { id: app.id, name: app.name },
    listening: await isListening(context.db, app.id),
    registrations: registrations.map((r) => ({
      id: r.webhook.id,
      url: r.webhook.url,
      events: r.webhook.events,
      isActive: r.webhook.isActive,
      disabledReason: r.webhook.disabledReason,
      businessName: r.businessName,
      installed: r.installationStatus === "ACTIVE",
      isTestInstall: r.isTestInstall,
      isInstallDefault: r.webhook.isInstallDefault,
    })),
    selected,
    page: page.page,
    total: log?.total ?? 0,
    deliveries: (log?.rows ?? []).map(({ delivery: d, attempts }) => ({
      ...serializeDelivery(d),
      body: d.body,
      tries: attempts.map((a) => ({
        id: a.id,
        n: a.attemptNo,
        at: a.createdAt.toISOString(),
        success: a.success,
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
        response: a.responseExcerpt,
      })),
    })),
  });
}

/** The page has no form message: a refused redelivery is an error page with the reason. */
const refused = {
  error: (e: ApiError) => {
    throw new Response(e.message, { status: e.status });
  },
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "DEVELOPER");
  return formAction(request, context, refused, async (form) => {
    if (form.get("intent") === "test") {
      // "Send a test": webhook.test now, no retries, not a delivery; relayed to `storefront-apps listen` on a test installation
      const webhookId = String(form.get("webhookId") ?? "");
      return json({
        test: { webhookId, ...(await testRegistrationForApp(context.db, context.env, app.id, webhookId)) },
      });
    }
    await redeliverForApp(context.db, app.id, String(form.get("deliveryId") ?? ""));
    const back = new URL(request.url);
    back.searchParams.set("redelivered", String(form.get("deliveryId")));
    return redirect(back.pathname + back.search);
  });
}

const tone = (status: string) =>
  status === "SUCCEEDED" ? "ok" : status === "FAILED" ? "danger" : status === "RETRYING" ? "warn" : "info";

export default function AppWebhooks() {
  const data = useLoaderData<typeof loader>();
  const tested = useActionData<typeof action>()?.test;
  const [params] = useSearchParams();
  const selected = data.registrations.find((r) => r.id === data.selected);
  const pages = Math.max(1, Math.ceil(data.total / 20));
  return (
    <div className="stack-lg">
      <AppPageHeader app={data.app} title="Webhooks">
        Registrations on the businesses that installed {data.app.name}, and every delivery with each attempt.
      </AppPageHeader>
      {data.listening ? (
        <p className="alert info" role="note">
          <code>storefront-apps listen</code> is connected: the deliveries and tests of your test installation go to it,
          and from it to your local server.
        </p>
      ) : null}
      <SuccessNotice show={params.get("redelivered")}>
        A new attempt was queued; it keeps the same X-Service-Event-Id.
      </SuccessNotice>
      {data.registrations.length === 0 ? (
        <EmptyState title="No webhook registrations yet">
          Registrations appear when a business installs the app (with a webhook URL set) or when the app calls POST
          /webhooks.
        </EmptyState>
      ) : (
        <DataTable
          rows={data.registrations}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ className: r.id === data.selected ? "selected" : undefined })}
          columns={[
            {
              head: "Business",
              cell: (r) => (
                <>
                  {r.businessName} {r.isTestInstall ? <span className="badge info">test</span> : null}
                  {!r.installed ? <span className="badge">uninstalled</span> : null}
                </>
              ),
            },
            {
              head: "Endpoint",
              className: "wide",
              cell: (r) => (
                <>
                  <Link to={`?webhook=${r.id}`}>
                    <code>{r.url}</code>
                  </Link>
                  {r.isInstallDefault ? <div className="muted small">install registration</div> : null}
                </>
              ),
            },
            {
              head: "Events",
              className: "small wide",
              cell: (r) => (r.events.length ? r.events.join(", ") : <span className="muted">none</span>),
            },
            {
              head: "State",
              cell: (r) =>
                r.isActive ? (
                  <span className="badge ok">active</span>
                ) : (
                  <span className="badge danger">
                    {r.disabledReason === "consecutive_failures" ? "disabled after failures" : "inactive"}
                  </span>
                ),
            },
          ]}
        />
      )}
      {data.selected ? (
        <section className="stack">
          <div className="section-title">
            <h2>Deliveries</h2>
            {selected?.installed ? (
              <Form method="post">
                <CsrfInput />
                <input type="hidden" name="intent" value="test" />
                <input type="hidden" name="webhookId" value={selected.id} />
                <SubmitButton className="button small" busyLabel="Sending…">
                  Send a test
                </SubmitButton>
              </Form>
            ) : null}
          </div>
          {tested && tested.webhookId === data.selected ? (
            <p className={`alert ${tested.success ? "success" : "danger"}`} role="status">
              {tested.success ? "Test delivered" : "Test failed"}:{" "}
              {tested.statusCode ? `HTTP ${tested.statusCode}` : "no answer"} in {tested.durationMs} ms
              {tested.error && !tested.error.startsWith("HTTP ") ? ` (${tested.error})` : ""}. A test is not a delivery:
              it is not listed below.
            </p>
          ) : null}
          {data.deliveries.length === 0 ? (
            <EmptyState title="No deliveries yet">
              Deliveries appear here when subscribed events happen on the business.
            </EmptyState>
          ) : (
            <ul className="delivery-list">
              {data.deliveries.map((d) => (
                <li key={d.id} className="card" data-testid="delivery">
                  <details>
                    <summary>
                      <span className={`badge ${tone(d.status)}`}>{d.status}</span> <code>{d.event}</code>{" "}
                      <span
                        className="badge"
                        title="API version the body was rendered in"
                        data-testid="delivery-version"
                      >
                        {d.apiVersion}
                      </span>
                      <span className="muted small">
                        {" "}
                        · {fmt(d.createdAt)} · {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                        {d.lastStatusCode ? ` · last HTTP ${d.lastStatusCode}` : ""}
                        {d.lastDurationMs !== null ? ` in ${d.lastDurationMs} ms` : ""}
                      </span>
                      {d.nextAttemptAt ? (
                        <span className="muted small"> · next attempt {fmt(d.nextAttemptAt)}</span>
                      ) : null}
                    </summary>
                    <div className="stack">
                      <p className="small">
                        Delivery (X-Service-Event-Id): <code>{d.id}</code>
                      </p>
                      <DataTable
                        rows={d.tries}
                        rowKey={(a) => a.id}
                        columns={[
                          { head: "#", label: "Attempt", cell: (a) => a.n },
                          { head: "When", className: "small", cell: (a) => fmt(a.at) },
                          {
                            head: "Result",
                            cell: (a) => (
                              <>
                                {a.success ? (
                                  <span className="badge ok">HTTP {a.statusCode}</span>
                                ) : (
                                  <span className="badge danger">
                                    {a.statusCode ? `HTTP ${a.statusCode}` : "no answer"}
                                  </span>
                                )}{" "}
                                <span className="small muted">
                                  {a.error && !a.error.startsWith("HTTP ") ? a.error : ""}
                                </span>
                              </>
                            ),
                          },
                          { head: "Duration", cell: (a) => `${a.durationMs ?? "—"} ms` },
                          {
                            head: "Response",
                            className: "wide",
                            cell: (a) => <code className="small excerpt">{a.response ?? ""}</code>,
                          },
                        ]}
                      />
                      <details>
                        <summary className="small">Payload</summary>
                        <pre tabIndex={0}>{JSON.stringify(JSON.parse(d.body), null, 2)}</pre>
                      </details>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="deliveryId" value={d.id} />
                        <SubmitButton className="button small" busyLabel="Queueing…">
                          Redeliver
                        </SubmitButton>
                      </Form>
                    </div>
                  </details>
                </li>
              ))}
            </ul>
          )}
          {pages > 1 ? (
            <nav className="row" aria-label="Pages">
              {data.page > 1 ? <Link to={`?webhook=${data.selected}&page=${data.page - 1}`}>← Newer</Link> : null}
              <span className="muted small">
                Page {data.page} of {pages}
              </span>
              {data.page < pages ? <Link to={`?webhook=${data.selected}&page=${data.page + 1}`}>Older →</Link> : null}
            </nav>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
