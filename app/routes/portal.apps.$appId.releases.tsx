import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { requireAppRoleFor } from "~/platform/accounts/guards.server";
import { appRoleAtLeast } from "~/platform/accounts/permissions";
import { formAction } from "~/platform/accounts/form-action.server";
import { listReleases, restoreRelease, serializeRelease, type DiffEntry } from "~/platform/apps/releases.server";
import { EmptyState } from "~/components/area-layout";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { AppPageHeader, ErrorAlert, SuccessNotice, utcDateTime } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Releases${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const { rows, total } = await listReleases(context.db, app.id, { limit: 50, offset: 0 });
  return json({
    app: { id: app.id, name: app.name },
    canRestore: appRoleAtLeast(role, "ADMIN"),
    inReview: app.status === "PENDING_REVIEW" || app.updateInReview,
    total,
    releases: rows.map(serializeRelease),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  return formAction(request, context, async (form) => {
    // restoring sets pricing and may submit an update: the ADMIN's (contract 17)
    requireAppRoleFor(role, "ADMIN");
    const version = Number(form.get("version"));
    const made = await restoreRelease(
      context.db,
      context.env,
      account.id,
      app.id,
      Number.isInteger(version) ? version : 0,
    );
    return redirect(`/portal/apps/${app.id}/releases?restored=${made.version}`);
  });
}

const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v));

function Diff({ diff }: { diff: DiffEntry[] }) {
  if (!diff.length) return <p className="muted">No change.</p>;
  return (
    <ul className="release-diff" data-testid="release-diff">
      {diff.map((d, i) => (
        <li key={i} className={`diff-${d.op}`}>
          <code>{d.path}</code>{" "}
          {d.op === "added" ? (
            <>
              added <code>{show(d.after)}</code>
            </>
          ) : d.op === "removed" ? (
            <>
              removed (was <code>{show(d.before)}</code>)
            </>
          ) : (
            <>
              <code>{show(d.before)}</code> → <code>{show(d.after)}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export default function Releases() {
  const data = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="stack-lg">
      <AppPageHeader app={data.app} title="Releases">
        Every version of {data.app.name}&apos;s configuration (<code>storefront-apps.json</code>): made by{" "}
        <code>storefront-apps deploy</code> or by an edit here in the portal, newest first, each with what it changed.
      </AppPageHeader>
      <SuccessNotice show={params.get("restored")}>Restored as release {params.get("restored")}.</SuccessNotice>
      <ErrorAlert error={failed && "error" in failed ? failed.error : null} />
      {data.releases.length === 0 ? (
        <EmptyState title="No release yet">
          Run <code>storefront-apps deploy</code> in your app&apos;s folder, or save a change of the app&apos;s
          settings, pricing or manifest.
        </EmptyState>
      ) : (
        <ol className="stack releases" reversed>
          {data.releases.map((r) => (
            <li key={r.version} className="card" data-testid={`release-${r.version}`}>
              <h2>
                Release {r.version}{" "}
                <span className={`badge ${r.status === "IN_REVIEW" ? "warn" : "ok"}`}>
                  {r.status === "IN_REVIEW" ? "In review" : "Applied"}
                </span>
              </h2>
              <p className="muted">
                {utcDateTime(r.createdAt, true)} · {r.source === "portal" ? "edited in the portal" : "deployed"}
                {r.restoredFrom ? ` · restores release ${r.restoredFrom}` : ""}
                {r.message ? ` · ${r.message}` : ""}
              </p>
              <Diff diff={r.diff} />
              {data.canRestore && r.version !== data.releases[0].version ? (
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="version" value={r.version} />
                  <SubmitButton className="button small" busyLabel="Restoring…" disabled={data.inReview}>
                    Restore release {r.version}
                  </SubmitButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
