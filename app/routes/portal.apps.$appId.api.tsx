import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { updateApp } from "~/platform/apps/apps.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { recordRelease } from "~/platform/apps/releases.server";
import { now } from "~/platform/core/clock.server";
import {
  changelogPath,
  changesBetween,
  currentVersion,
  supportedVersions,
  versionIndex,
  versionState,
} from "~/platform/versions/registry";
import { apiUsage, changedFields } from "~/platform/versions/health.server";
import { VERSIONING } from "~/platform/versions/changes";
import { APP_API_ROUTES } from "~/operations.server";
import { EmptyState } from "~/components/area-layout";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { AppPageHeader, DataTable, ErrorAlert, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `API version & health${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : "");

/** The version page of an app (issue 32): its pin and how to move it, and its API health over 30 days. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const t = now();
  const supported = supportedVersions(t).map((s) => ({
    version: s.version,
    status: s.status,
    sunsetAt: s.sunsetAt?.toISOString(),
  }));
  const pin = versionState(app.apiVersion, t);
  const current = currentVersion(t);
  const asked = new URL(request.url).searchParams.get("target");
  const target = asked && supported.some((s) => s.version === asked) && asked !== app.apiVersion ? asked : null;
  const usage = await apiUsage(context.db, app.id, t);
  // the operations called in an older version than the current one, and the fields an upgrade changes in their answers
  const older = [...new Set(usage.operations.map((o) => o.version))].filter(
    (v) => versionIndex(v) >= 0 && versionIndex(v) < versionIndex(current),
  );
  const fieldsByVersion = new Map(older.map((v) => [v, changedFields(APP_API_ROUTES, VERSIONING, v)]));
  const affected = usage.operations
    .filter((o) => fieldsByVersion.has(o.version))
    .map((o) => {
      const op = fieldsByVersion.get(o.version)!.get(o.operation);
      return {
        version: o.version,
        operation: op ? `${op.method} ${op.path}` : o.operation,
        calls: o.calls,
        fields: op?.fields ?? [],
      };
    });
  return json({
    app: { id: app.id, name: app.name, apiVersion: app.apiVersion },
    pin: pin
      ? { status: pin.status, sunsetAt: pin.sunsetAt?.toISOString(), deprecatedAt: pin.deprecatedAt?.toISOString() }
      : null,
    current,
    supported,
    target,
    targetChanges: target ? changesBetween(app.apiVersion, target) : [],
    upgrading: target ? versionIndex(target) > versionIndex(app.apiVersion) : true,
    upgradeChanges: changesBetween(app.apiVersion, current),
    usage: usage.versions,
    affected,
    saved: new URL(request.url).searchParams.get("saved"),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app } = await requireDeveloperApp(request, context, params.appId, "DEVELOPER");
  return formAction(request, context, {}, async (form) => {
    const version = String(form.get("apiVersion") ?? "");
    await updateApp(context.db, account.id, app.id, { apiVersion: version }, { account, ip: clientAddress(request) });
    // each edit in the portal is a release (contract 19)
    await recordRelease(context.db, app.id, account.id, { before: app });
    return redirect(`/portal/apps/${app.id}/api?saved=${encodeURIComponent(version)}`);
  });
}

function StatusBadge({ status }: { status: string }) {
  const tone = status === "CURRENT" ? "ok" : status === "DEPRECATED" ? "warn" : status === "SUNSET" ? "danger" : "";
  return (
    <span className={`badge ${tone}`} data-testid="version-status">
      {status}
    </span>
  );
}

export default function ApiVersionPage() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const { app, pin } = data;
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="API version & health">
        Your app's App API answers, webhooks and hook calls are in the version it is pinned to. A request can name
        another with the <code>Api-Version</code> header. See the <Link to={changelogPath()}>changelog</Link>.
      </AppPageHeader>
      <ErrorAlert error={refused && "error" in refused ? String(refused.error) : null} />
      <SuccessNotice show={data.saved}>
        Pinned to <strong>{data.saved}</strong>: new answers, webhooks and hook calls use it from now on.
      </SuccessNotice>

      <section className="card stack" aria-labelledby="pin-title">
        <div className="section-title">
          <h2 id="pin-title">
            Pinned version <code data-testid="pinned-version">{app.apiVersion}</code>
          </h2>
          <StatusBadge status={pin?.status ?? "SUNSET"} />
        </div>
        {pin?.status === "DEPRECATED" ? (
          <p className="alert warning" role="alert" data-testid="deprecation-warning">
            {app.apiVersion} is deprecated: its sunset is on <strong>{day(pin.sunsetAt)}</strong>. After that day, App
            API calls in it are refused (410 Gone, naming the supported versions) and webhooks and hook calls are sent
            in the oldest supported version. Upgrade before then.
          </p>
        ) : null}
        {pin?.status === "SUPPORTED" ? (
          <p className="muted">
            Supported until <strong>{day(pin.sunsetAt)}</strong> (deprecated from {day(pin.deprecatedAt)}).
          </p>
        ) : null}
        {!pin || pin.status === "SUNSET" ? (
          <p className="alert danger" role="alert" data-testid="deprecation-warning">
            {app.apiVersion} is past its sunset: App API calls in it are refused. Choose a supported version below.
          </p>
        ) : null}

        <Form method="get" className="row">
          <label className="field">
            <span className="small">Move to</span>
            <select name="target" defaultValue={data.target ?? data.current}>
              {data.supported.map((s) => (
                <option key={s.version} value={s.version} disabled={s.version === app.apiVersion}>
                  {s.version} ({s.status.toLowerCase()}
                  {s.sunsetAt ? `, sunset ${day(s.sunsetAt)}` : ""})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Review the changes
          </button>
        </Form>

        {data.target ? (
          <div className="stack" data-testid="version-changes">
            <h3>
              What changes from {app.apiVersion} to {data.target}
            </h3>
            {data.targetChanges.length === 0 ? (
              <p className="muted">No change lies between these versions.</p>
            ) : (
              <ul>
                {data.targetChanges.map(({ version, change }) => (
                  <li key={change.anchor}>
                    <strong>{version}</strong>
                    {data.upgrading ? "" : " (undone)"}: {change.summary}{" "}
                    <Link to={changelogPath(version, change.anchor)}>Details</Link>
                  </li>
                ))}
              </ul>
            )}
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="apiVersion" value={data.target} />
              <SubmitButton className="button primary" busyLabel="Switching…">
                Switch to {data.target}
              </SubmitButton>
            </Form>
          </div>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="usage-title">
        <h2 id="usage-title">Calls and deliveries per version, last 30 days</h2>
        {data.usage.length === 0 ? (
          <EmptyState title="No calls or deliveries yet">
            App API calls (counted within a few seconds) and webhook deliveries appear here.
          </EmptyState>
        ) : (
          <DataTable
            data-testid="usage-table"
            rowKey={(u) => u.version}
            rows={data.usage}
            columns={[
              { head: "Version", cell: (u) => <code>{u.version}</code> },
              {
                head: "Status",
                cell: (u) => (
                  <StatusBadge status={data.supported.find((s) => s.version === u.version)?.status ?? "SUNSET"} />
                ),
              },
              { head: "App API calls", num: true, cell: (u) => u.calls.toLocaleString("en-US") },
              { head: "Webhook deliveries", num: true, cell: (u) => u.deliveries.toLocaleString("en-US") },
            ]}
          />
        )}
      </section>

      <section className="card stack" aria-labelledby="affected-title">
        <h2 id="affected-title">What an upgrade to {data.current} would change</h2>
        {data.upgradeChanges.length === 0 ? (
          <p className="muted">You are on the current version.</p>
        ) : (
          <ul>
            {data.upgradeChanges.map(({ version, change }) => (
              <li key={change.anchor}>
                {change.summary} <Link to={changelogPath(version, change.anchor)}>Details</Link>
              </li>
            ))}
          </ul>
        )}
        {data.affected.length === 0 ? (
          <p className="muted">No call in an older version over the last 30 days.</p>
        ) : (
          <DataTable
            data-testid="affected-table"
            rowKey={(a) => `${a.version} ${a.operation}`}
            rows={data.affected}
            columns={[
              { head: "Operation you called", cell: (a) => <code>{a.operation}</code> },
              { head: "In", cell: (a) => <code>{a.version}</code> },
              { head: "Calls", num: true, cell: (a) => a.calls.toLocaleString("en-US") },
              {
                head: "Fields that change",
                cell: (a) =>
                  a.fields.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    a.fields.map((f) => (
                      <code key={f.field} className="small" style={{ marginRight: ".4rem" }}>
                        {f.field}
                      </code>
                    ))
                  ),
              },
            ]}
          />
        )}
      </section>
    </div>
  );
}
