import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireAppRoleFor } from "~/platform/accounts/guards.server";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { APP_ROLE_LABELS, appRoleAtLeast, type AppRole } from "~/platform/accounts/permissions";
import { formAction } from "~/platform/accounts/form-action.server";
import {
  listAppVersions,
  parseAppUpdate,
  regenerateClientSecret,
  serializeApp,
  serializeVersion,
  submitApp,
  submitSchema,
  updateApp,
} from "~/platform/apps/apps.server";
import { recordRelease } from "~/platform/apps/releases.server";
import { SCOPES, type Scope } from "~/platform/shapes/app-catalog";
import { parseWith, type ApiError } from "~/platform/core/http.server";
import { flashSecret, flashTestInstall, takeFlashedTestInstall } from "~/platform/apps/secret-flash.server";
import { testInstall, testStatus, testUninstall } from "~/platform/installs/test-installs.server";
import { APP_LABELS, AppForm, appFormToInput, type AppFormValues } from "~/components/app-form";
import { messageFormErrors } from "~/platform/core/form-errors.server";
import type { FormErrors } from "~/components/form-errors";
import { SubmitButton } from "~/components/submit-button";
import { AppStatusBadge } from "~/components/status-badge";
import { CopyableCode } from "~/components/copy-button";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert, Facts, SuccessNotice } from "~/components/page-parts";
import { versionState } from "~/platform/versions/registry";
import { now } from "~/platform/core/clock.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.app.name ?? "App"} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { account, app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const versions = await listAppVersions(context.db, app.id);
  const sandbox = await testStatus(context.db, account, app.id);
  const flashed = await takeFlashedTestInstall(request, context.env, app.id);
  return json(
    {
      app: serializeApp(app),
      role,
      versions: versions.map(serializeVersion),
      saved: new URL(request.url).searchParams.get("saved"),
      sandbox,
      newTestInstall: flashed.value,
      publicUrl: context.env.publicUrl,
      apiVersionStatus: versionState(app.apiVersion, now())?.status ?? "SUNSET",
    },
    { headers: { "Set-Cookie": flashed.cookie, "Cache-Control": "no-store" } },
  );
}

/** A refused edit shows every error of the form at once, next to its field, with the typed values kept. */
const refused = {
  error: (e: ApiError, form: FormData) =>
    form.get("intent") === "update" && e.status === 400
      ? {
          error: null as string | null,
          errors: messageFormErrors(e.message, APP_LABELS) as FormErrors | null,
          values: appFormToInput(form, "edit") as AppFormValues | null,
        }
      : { error: e.message as string | null, errors: null as FormErrors | null, values: null as AppFormValues | null },
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const appId = app.id;
  // each intent's least role (contract 17): the page shows only the forms the role allows
  const needs: Record<string, AppRole> = {
    update: "DEVELOPER",
    submit: "ADMIN",
    "test-install": "DEVELOPER",
    "test-uninstall": "DEVELOPER",
    "regenerate-secret": "ADMIN",
  };
  return formAction(request, context, refused, async (form) => {
    requireAppRoleFor(role, needs[String(form.get("intent"))] ?? "DEVELOPER");
    switch (form.get("intent")) {
      case "update": {
        const input = appFormToInput(form, "edit");
        // pricing is the ADMIN's: a DEVELOPER's form has no pricing field, and keeps the plans as they are
        if (!appRoleAtLeast(role, "ADMIN")) delete (input as { pricing?: unknown }).pricing;
        await updateApp(context.db, account.id, appId, parseAppUpdate(context.env, input), {
          account,
          ip: clientAddress(request),
        });
        // each edit in the portal is a release (contract 19)
        await recordRelease(context.db, appId, account.id, { before: app });
        return redirect(`/portal/apps/${appId}?saved=changes`);
      }
      case "submit":
        await submitApp(
          context.db,
          account.id,
          appId,
          parseWith(submitSchema, { releaseNotes: String(form.get("releaseNotes") ?? "") }),
          { account, ip: clientAddress(request) },
        );
        return redirect(`/portal/apps/${appId}?saved=submitted`);
      case "test-install": {
        const result = await testInstall(context.db, context.env, account, appId);
        const cookie = await flashTestInstall(request, context.env, {
          appId,
          accessToken: result.accessToken,
          webhookSecret: result.webhookSecret,
        });
        return redirect(`/portal/apps/${appId}?saved=test-installed#test-install`, {
          headers: { "Set-Cookie": cookie },
        });
      }
      case "test-uninstall":
        await testUninstall(context.db, account, appId);
        return redirect(`/portal/apps/${appId}?saved=test-uninstalled#test-install`);
      case "regenerate-secret": {
        const secret = await regenerateClientSecret(context.db, context.env, account.id, appId, {
          account,
          ip: clientAddress(request),
        });
        return redirect(`/portal/apps/${appId}/credentials`, {
          headers: { "Set-Cookie": await flashSecret(request, context.env, appId, secret) },
        });
      }
      default:
        return json({ error: "Unknown action", errors: null, values: null }, 400);
    }
  });
}

export default function AppDetail() {
  const { app, role, versions, saved, sandbox, newTestInstall, publicUrl, apiVersionStatus } =
    useLoaderData<typeof loader>();
  // the page shows only what the member's role allows (contract 17); the server refuses the rest
  const isAdmin = appRoleAtLeast(role, "ADMIN");
  const canEdit = appRoleAtLeast(role, "DEVELOPER");
  const data = useActionData<typeof action>();
  const inReview = app.status === "PENDING_REVIEW" || app.updateInReview;
  const pendingScopes = app.scopes.filter((s) => !app.approvedScopes.includes(s));
  const values: AppFormValues = data?.values
    ? { ...(data.values as AppFormValues), slug: app.slug }
    : { ...app, webhookUrl: app.webhookUrl ?? "", iconUrl: app.iconUrl ?? "" };
  return (
    <div className="stack-lg">
      <header className="stack">
        <p>
          <Link to="/portal/apps">← My apps</Link>
        </p>
        <div className="section-title">
          <div>
            <h1>
              {app.name} <AppStatusBadge status={app.status} updateInReview={app.updateInReview} />
            </h1>
            <nav className="app-links" aria-label="App sections">
              <Link to={`/portal/apps/${app.id}/analytics`} className="button small">
                Analytics
              </Link>
              {isAdmin ? (
                <Link to={`/portal/apps/${app.id}/earnings`} className="button small">
                  Earnings
                </Link>
              ) : null}
              <Link to={`/portal/apps/${app.id}/members`} className="button small">
                Members
              </Link>
              <Link to={`/portal/apps/${app.id}/reviews`} className="button small">
                Reviews
              </Link>
              <Link to={`/portal/apps/${app.id}/activity`} className="button small">
                Activity
              </Link>
              <Link to={`/portal/apps/${app.id}/webhooks`} className="button small">
                Webhooks &amp; deliveries
              </Link>
              <Link to={`/portal/apps/${app.id}/privacy-requests`} className="button small">
                Privacy requests
              </Link>
              <Link to={`/portal/apps/${app.id}/hooks`} className="button small">
                Hook calls
              </Link>
              <Link to={`/portal/apps/${app.id}/api`} className="button small">
                API version &amp; health
              </Link>
              <Link to={`/portal/apps/${app.id}/manifest`} className="button small">
                Manifest
              </Link>
              <Link to={`/portal/apps/${app.id}/preview`} className="button small">
                Block preview
              </Link>
              <Link to={`/portal/apps/${app.id}/releases`} className="button small">
                Releases
              </Link>
              <Link to={`/portal/apps/${app.id}/logs`} className="button small">
                Live logs
              </Link>
            </nav>
            <p className="muted">
              {app.slug} · version {app.version} · API version{" "}
              <Link to={`/portal/apps/${app.id}/api`} data-testid="app-api-version">
                {app.apiVersion}
              </Link>
              {apiVersionStatus === "DEPRECATED" || apiVersionStatus === "SUNSET" ? (
                <span className="badge warn"> {apiVersionStatus.toLowerCase()}</span>
              ) : null}
              {app.publishedAt
                ? ` · published ${new Date(app.publishedAt).toLocaleDateString("en-US", { timeZone: "UTC" })}`
                : ""}
              {" · "}
              <span data-testid="app-role">your role: {APP_ROLE_LABELS[role].label}</span>
            </p>
          </div>
          {!inReview && isAdmin ? (
            <Form method="post" className="stack submit-form">
              <CsrfInput />
              <input type="hidden" name="intent" value="submit" />
              <label className="field">
                <span className="small">Release notes (optional, shown in the marketplace changelog)</span>
                <textarea name="releaseNotes" rows={2} maxLength={5000} placeholder="What changed in this version" />
              </label>
              <SubmitButton className="button primary" busyLabel="Submitting…">
                {app.status === "APPROVED" ? "Submit update for review" : "Submit for review"}
              </SubmitButton>
            </Form>
          ) : null}
        </div>
      </header>

      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data && saved === "changes"}>Changes saved.</SuccessNotice>
      <SuccessNotice show={saved === "submitted"}>
        Submitted for review. You can edit again when the review ends.
      </SuccessNotice>
      {app.reviewNotes && !inReview ? (
        <section className="alert warning" aria-labelledby="notes-title">
          <strong id="notes-title">Reviewer notes</strong>
          <p data-testid="review-notes" style={{ whiteSpace: "pre-wrap", margin: ".3rem 0 0" }}>
            {app.reviewNotes}
          </p>
          <p className="small" style={{ margin: ".3rem 0 0" }}>
            Make the changes, then submit again.
          </p>
        </section>
      ) : null}
      {inReview ? (
        <p className="alert info">
          {app.updateInReview
            ? "Your update is in review. The published version stays installable meanwhile."
            : "Your app is in review. It cannot be edited until the review ends."}
        </p>
      ) : null}

      <section className="card stack">
        <h2>Credentials</h2>
        <Facts
          facts={[
            ["Client ID", <CopyableCode key="id" value={app.clientId} />, "copy-row"],
            ["Client secret", "Hidden — shown only once, when it is created.", "muted"],
          ]}
        />
        {isAdmin ? (
          <details className="confirm">
            <summary>Regenerate the client secret…</summary>
            <p className="muted">
              A new secret is shown once. The current secret stops working immediately: update your app's server before
              it next exchanges a code.
            </p>
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="regenerate-secret" />
              <SubmitButton className="button danger" busyLabel="Regenerating…">
                Yes, regenerate the secret
              </SubmitButton>
            </Form>
          </details>
        ) : null}
      </section>

      <section className="card stack" id="test-install" aria-labelledby="test-install-title">
        <div className="section-title">
          <h2 id="test-install-title">Test install on your sandbox</h2>
          {sandbox.installed ? (
            <span className="badge ok" data-testid="test-install-status">
              Installed
            </span>
          ) : (
            <span className="badge" data-testid="test-install-status">
              Not installed
            </span>
          )}
        </div>
        <SuccessNotice show={saved === "test-uninstalled"}>
          Uninstalled from your sandbox. Its token no longer works.
        </SuccessNotice>
        <SuccessNotice show={saved === "test-installed" && sandbox.installed}>
          Test install created on your sandbox business.
        </SuccessNotice>
        {newTestInstall ? (
          <div className="stack">
            <p className="alert warning" role="alert">
              <strong>Copy these now.</strong> The access token and webhook secret are shown only once.
            </p>
            <Facts
              facts={[
                [
                  "Access token",
                  <CopyableCode key="token" value={newTestInstall.accessToken} testId="test-access-token" secret />,
                  "copy-row",
                ],
                [
                  "Webhook secret",
                  <CopyableCode
                    key="secret"
                    value={newTestInstall.webhookSecret}
                    testId="test-webhook-secret"
                    secret
                  />,
                  "copy-row",
                ],
              ]}
            />
            <pre tabIndex={0}>{`curl -H "Authorization: Bearer ${newTestInstall.accessToken}" \\
  ${publicUrl}/app-api/business`}</pre>
          </div>
        ) : null}
        {sandbox.installed ? (
          <p className="row" data-testid="sandbox-links">
            <Link to="/admin/pages/home" className="button primary">
              Place its blocks in the sandbox&apos;s site builder
            </Link>
            <Link to="/admin/apps" className="button">
              Open sandbox admin
            </Link>
          </p>
        ) : null}
        {sandbox.installation ? (
          <Facts
            facts={[
              ["Installation", <code key="i">{sandbox.installation.installationId}</code>],
              ["Business", <code key="b">{sandbox.installation.businessId}</code>],
              ["Scopes", sandbox.installation.scopes.join(", ")],
              [
                "Kind",
                sandbox.installation.isTestInstall ? "Test install" : "Production install (the app was approved)",
              ],
            ]}
          />
        ) : (
          <p className="muted">
            Install the app on your sandbox business without review: you get an access token for the App API and a
            webhook secret, and your blocks and embeds appear in the sandbox.
          </p>
        )}
        {canEdit ? (
          <Form method="post">
            <CsrfInput />
            {sandbox.installed ? (
              <SubmitButton
                name="intent"
                value="test-uninstall"
                className="button"
                busyLabel="Uninstalling from your sandbox…"
              >
                Uninstall from sandbox
              </SubmitButton>
            ) : (
              <SubmitButton
                name="intent"
                value="test-install"
                className="button primary"
                busyLabel="Installing on your sandbox…"
              >
                Test-install on sandbox
              </SubmitButton>
            )}
          </Form>
        ) : null}
      </section>

      {app.status === "APPROVED" && pendingScopes.length ? (
        <p className="alert info">
          Scopes waiting for approval:{" "}
          {pendingScopes.map((s) => (
            <code key={s}>{s} </code>
          ))}{" "}
          — installed merchants will be asked to approve them after the update is approved.
        </p>
      ) : null}

      <section className="card stack">
        <h2>App details</h2>
        <AppForm
          key={data?.values ? "typed" : app.updatedAt}
          values={values}
          mode="edit"
          disabled={inReview || !canEdit}
          withPricing={isAdmin}
          submitLabel="Save changes"
          errors={data?.errors}
        />
      </section>

      <section className="card stack">
        <h2>Approved versions</h2>
        {versions.length === 0 ? (
          <p className="muted">No version has been approved yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Version</th>
                <th>Scopes</th>
                <th>Approved</th>
                <th>Release notes</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr key={v.id}>
                  <td>{v.version}</td>
                  <td data-label="Scopes">
                    {v.scopes.map((s) => (
                      <span key={s} className="badge" title={SCOPES[s as Scope]}>
                        {s}
                      </span>
                    ))}
                  </td>
                  <td data-label="Approved">
                    {new Date(v.approvedAt).toLocaleString("en-US", {
                      dateStyle: "medium",
                      timeStyle: "short",
                      timeZone: "UTC",
                    })}{" "}
                    UTC
                  </td>
                  <td data-label="Release notes" className="prewrap small">
                    {v.releaseNotes || <span className="muted">—</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
