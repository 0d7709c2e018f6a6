import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { eq } from "drizzle-orm";
import { accounts } from "../../db/schema";
import { orNotFound, requireReviewer } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { listAppVersions, serializeApp } from "~/platform/apps/apps.server";
import { approveApp, getAppForReview, rejectApp, rejectSchema } from "~/platform/apps/review.server";
import { CATEGORY_LABELS, REVIEW_CRITERIA, SCOPES, type Category, type Scope } from "~/platform/shapes/app-catalog";
import { CsrfInput } from "~/components/csrf";
import { AppIcon } from "~/components/app-icon";
import { DataTable, ErrorAlert, utcDateTime } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.app.name ? `Review ${data.app.name}` : "Review"} · Review console` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireReviewer(request, context);
  const app = await getAppForReview(context.db, params.appId ?? "").catch(orNotFound("App not found"));
  const [[developer], versions] = await Promise.all([
    context.db
      .select({ name: accounts.name, email: accounts.email })
      .from(accounts)
      .where(eq(accounts.id, app.developerId)),
    listAppVersions(context.db, app.id),
  ]);
  return json({
    app: serializeApp(app),
    developer: developer ?? null,
    inReview: app.status === "PENDING_REVIEW" || app.updateInReview,
    versions: versions.map((v) => ({
      id: v.id,
      version: v.version,
      scopes: v.scopes,
      approvedAt: v.approvedAt.toISOString(),
    })),
  });
}

const refused = { error: (e: ApiError) => ({ error: e.message, field: null as string | null }) };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account } = await requireReviewer(request, context);
  const appId = params.appId ?? "";
  return formAction(request, context, refused, async (form) => {
    const intent = form.get("intent");
    if (intent === "approve") {
      const criteria = form.getAll("criteria").filter((c): c is string => typeof c === "string");
      await approveApp(context.db, account.id, appId, criteria, { account, ip: clientAddress(request) });
      return redirect("/reviewer?done=approved");
    }
    if (intent === "reject") {
      const parsed = rejectSchema.safeParse({ notes: typeof form.get("notes") === "string" ? form.get("notes") : "" });
      if (!parsed.success)
        return json({ error: "Notes are required: tell the developer what to change.", field: "notes" }, 400);
      await rejectApp(context.db, appId, parsed.data.notes, { account, ip: clientAddress(request) });
      return redirect("/reviewer?done=rejected");
    }
    return json({ error: "Unknown action.", field: null }, 400);
  });
}

const isWebUrl = (url: string | null | undefined): url is string =>
  typeof url === "string" && /^https?:\/\//i.test(url);
const scopeWords = (scope: string) => SCOPES[scope as Scope] ?? "Unknown scope";
const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

function StatusBadge({ status }: { status: string }) {
  const tone = status === "APPROVED" ? "ok" : status === "PENDING_REVIEW" ? "warn" : "";
  const label =
    status === "PENDING_REVIEW"
      ? "Pending review"
      : status === "APPROVED"
        ? "Approved"
        : status === "DRAFT"
          ? "Draft"
          : status;
  return <span className={`badge ${tone}`.trim()}>{label}</span>;
}

/** Names (scopes, events) as a row of code tags. */
function Tags({ names }: { names: string[] }) {
  return (
    <span className="tag-list">
      {names.map((n) => (
        <code key={n} className="tag">
          {n}
        </code>
      ))}
    </span>
  );
}

export default function ReviewApp() {
  const { app, developer, inReview, versions } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const allChecked = REVIEW_CRITERIA.every((c) => checked[c.key]);
  const isUpdate = app.updateInReview;
  const removedScopes = isUpdate ? app.approvedScopes.filter((s) => !app.scopes.includes(s)) : [];

  return (
    <div className="stack-lg review-page">
      <p className="small">
        <Link to="/reviewer">← Back to the review queue</Link>
      </p>

      <header className="app-head">
        <AppIcon name={app.name} iconUrl={app.iconUrl} large />
        <div className="app-head-text">
          <h1>{app.name}</h1>
          <div className="meta-row">
            <StatusBadge status={app.status} />
            {isUpdate ? <span className="badge info">Update of a published app</span> : null}
            <span className="badge">{categoryLabel(app.category)}</span>
            <span className="muted small">
              <code>{app.slug}</code> · version {app.version}
            </span>
          </div>
        </div>
      </header>

      <ErrorAlert error={data?.error} />
      {!inReview ? <p className="alert info">This app is not in review.</p> : null}

      <section className="card stack" aria-labelledby="listing-title">
        <h2 id="listing-title">Listing</h2>
        <p className="prewrap">{app.description}</p>
        <dl className="details">
          <dt>Developer</dt>
          <dd>
            {developer ? (
              <>
                {developer.name} <span className="muted">&lt;{developer.email}&gt;</span>
              </>
            ) : (
              <span className="muted">Unknown</span>
            )}
          </dd>
          <dt>Category</dt>
          <dd>{categoryLabel(app.category)}</dd>
          <dt>Slug</dt>
          <dd>
            <code>{app.slug}</code>
          </dd>
          <dt>Version</dt>
          <dd>{app.version}</dd>
        </dl>
      </section>

      <section className="card stack" aria-labelledby="scopes-title">
        <h2 id="scopes-title">Requested scopes</h2>
        {isUpdate ? (
          <p className="muted small">
            Scopes marked “new” were not part of the approved version; merchants will be asked to consent again.
          </p>
        ) : null}
        <ul className="scope-list">
          {app.scopes.map((s) => (
            <li key={s}>
              <code>{s}</code>
              {isUpdate && !app.approvedScopes.includes(s) ? <span className="badge warn">new</span> : null}
              <span className="muted">{scopeWords(s)}</span>
            </li>
          ))}
        </ul>
        {removedScopes.length > 0 ? (
          <p className="muted small">
            No longer requested:{" "}
            {removedScopes.map((s, i) => (
              <span key={s}>
                {i > 0 ? ", " : ""}
                <code>{s}</code>
              </span>
            ))}
          </p>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="integration-title">
        <h2 id="integration-title">Integration</h2>
        <dl className="details">
          <dt>Redirect URL</dt>
          <dd className="break">
            <code>{app.redirectUrl}</code>
          </dd>
          <dt>Webhook URL</dt>
          <dd className="break">
            {app.webhookUrl ? <code>{app.webhookUrl}</code> : <span className="muted">None</span>}
          </dd>
          <dt>Webhook events</dt>
          <dd>
            {app.webhookEvents.length > 0 ? <Tags names={app.webhookEvents} /> : <span className="muted">None</span>}
          </dd>
        </dl>
      </section>

      <section className="card stack" aria-labelledby="screenshots-title">
        <h2 id="screenshots-title">Screenshots</h2>
        {app.screenshots.length === 0 ? (
          <p className="muted">No screenshots.</p>
        ) : (
          <ul className="thumbs">
            {app.screenshots.map((url, i) => (
              <li key={`${i}-${url}`}>
                {isWebUrl(url) ? (
                  <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                    <img src={url} alt={`Screenshot ${i + 1} of ${app.name}`} loading="lazy" />
                    <span className="small break">{url}</span>
                  </a>
                ) : (
                  <span className="small break muted">{url}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card stack" aria-labelledby="manifest-title">
        <h2 id="manifest-title">Manifest</h2>
        {app.manifest ? (
          <pre className="manifest" tabIndex={0}>
            {JSON.stringify(app.manifest, null, 2)}
          </pre>
        ) : (
          <p className="muted">No manifest</p>
        )}
      </section>

      <section className="card stack" aria-labelledby="versions-title">
        <h2 id="versions-title">Previously approved versions</h2>
        {versions.length === 0 ? (
          <p className="muted">No approved versions yet.</p>
        ) : (
          <DataTable
            rows={versions}
            rowKey={(v) => v.id}
            columns={[
              { head: "Version", cell: (v) => v.version },
              {
                head: "Scopes",
                cell: (v) => <Tags names={v.scopes} />,
              },
              { head: "Approved", cell: (v) => utcDateTime(v.approvedAt) },
            ]}
          />
        )}
      </section>

      {inReview ? (
        <section className="card stack decision" aria-labelledby="decision-title">
          <h2 id="decision-title">Decision</h2>
          <fieldset className="checklist">
            <legend>Review checklist</legend>
            <p className="muted small" id="checklist-hint">
              Tick every criterion before approving{allChecked ? " ✓" : ""}: the platform refuses an approval without
              all five.
            </p>
            {REVIEW_CRITERIA.map((c) => (
              <label key={c.key} className={checked[c.key] ? "choice selected" : "choice"}>
                <input
                  type="checkbox"
                  form="approve-form"
                  name="criteria"
                  value={c.key}
                  required
                  onChange={(e) => setChecked((prev) => ({ ...prev, [c.key]: e.target.checked }))}
                />
                <strong>{c.label}</strong>
                <span className="muted">{c.hint}</span>
              </label>
            ))}
          </fieldset>

          <div className="decision-forms">
            <Form method="post" id="approve-form" className="stack decision-approve">
              <CsrfInput />
              <input type="hidden" name="intent" value="approve" />
              <h3>Approve</h3>
              <p className="muted small">
                {isUpdate
                  ? "The update replaces the published version; new scopes require merchants to consent again."
                  : "The app is published in the marketplace at once."}
              </p>
              <div>
                <button
                  type="submit"
                  className="button primary"
                  disabled={busyIntent != null}
                  aria-describedby="checklist-hint"
                >
                  Approve
                </button>
              </div>
            </Form>

            <Form method="post" className="stack decision-reject">
              <CsrfInput />
              <input type="hidden" name="intent" value="reject" />
              <h3>Send back</h3>
              <label>
                Notes for the developer
                <textarea
                  name="notes"
                  required
                  maxLength={5000}
                  rows={5}
                  aria-invalid={data?.field === "notes" ? true : undefined}
                  placeholder="What should the developer change?"
                />
              </label>
              <div>
                <button type="submit" className="button danger" disabled={busyIntent != null}>
                  Reject
                </button>
              </div>
            </Form>
          </div>
        </section>
      ) : null}
    </div>
  );
}
