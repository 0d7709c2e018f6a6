import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { eq } from "drizzle-orm";
import { extensions } from "../../db/schema";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { ApiError } from "~/platform/core/http.server";
import { parseManifest, syncManifest, type SyncPlan } from "~/platform/extensions/manifest.server";
import { putManifest } from "~/platform/apps/manifest.server";
import { recordRelease } from "~/platform/apps/releases.server";
import { checkManifestText } from "~/platform/extensions/manifest-text.server";
import { exactOrigin } from "~/platform/core/urls";
import type { Manifest } from "~/platform/shapes/manifest";
import { checkFraming, type FramingResult } from "~/platform/extensions/framing.server";
import { CsrfInput } from "~/components/csrf";
import { ManifestEditor } from "~/components/manifest-editor/manifest-editor";
import { AppPageHeader, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Manifest · Developer portal" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const rows = await context.db.select().from(extensions).where(eq(extensions.appId, app.id));
  // the examples the editor inserts point at the app's own server: the origin of a URL it already uses
  const manifest = (app.manifest ?? {}) as Manifest;
  const urls = [
    ...(manifest.blocks ?? []).map((b) => b.renderUrl),
    ...(manifest.embeds ?? []).flatMap((e) => [e.renderUrl, e.scriptUrl]),
    ...(manifest.adminPages ?? []).map((a) => a.renderUrl),
    app.redirectUrl,
  ];
  const exampleOrigin = urls.map(exactOrigin).find((o): o is string => !!o) ?? "https://app.example";
  return json({
    exampleOrigin,
    app: { id: app.id, name: app.name, locked: app.status === "PENDING_REVIEW" || app.updateInReview },
    text: JSON.stringify(app.manifest ?? { blocks: [], embeds: [], hooks: [], adminPages: [] }, null, 2),
    extensions: rows
      .map((e) => ({ kind: e.kind, key: e.key, isActive: e.isActive }))
      .sort((a, b) => `${a.kind}:${a.key}`.localeCompare(`${b.kind}:${b.key}`)),
  });
}

type Result = { text: string; errors: string[]; plan: SyncPlan | null; framing: FramingResult[]; saved: boolean };

const refused = {
  error: (e: ApiError, form: FormData): Result => ({
    text: String(form.get("manifest") ?? ""),
    errors: [e.message],
    plan: null,
    framing: [],
    saved: false,
  }),
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app } = await requireDeveloperApp(request, context, params.appId, "DEVELOPER");
  return formAction(request, context, refused, async (form) => {
    const text = String(form.get("manifest") ?? "");
    const result: Result = { text, errors: [], plan: null, framing: [], saved: false };
    const { raw, problems } = checkManifestText(text);
    if (problems.length) return json({ ...result, errors: problems }, 400);
    const manifest = parseManifest(raw);
    result.framing = await checkFraming(context.env, manifest);
    try {
      if (form.get("intent") === "save") {
        const saved = await putManifest(context.db, account.id, app.id, manifest, {
          dryRun: false,
          by: { account, ip: clientAddress(request) },
        });
        // each edit in the portal is a release (contract 19)
        await recordRelease(context.db, app.id, account.id, { before: app });
        return json({ ...result, plan: saved.sync, saved: true, text: JSON.stringify(saved.manifest, null, 2) });
      }
      return json({ ...result, plan: await syncManifest(context.db, app.id, manifest, { dryRun: true }) });
    } catch (e) {
      // the refusal beside the framing checks already made
      if (e instanceof ApiError) return json({ ...result, errors: [e.message] }, e.status);
      throw e;
    }
  });
}

export default function ManifestPage() {
  const { app, text, extensions, exampleOrigin } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const plan = result?.plan;
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Manifest">
        Blocks, embeds, hooks and admin pages, as JSON. Check shows what saving would change; saving syncs extensions at
        once (new ones active, changed ones updated in place, removed ones deactivated, never deleted).
      </AppPageHeader>
      {app.locked ? (
        <p className="alert info">
          The app is in review: the manifest can be checked but not saved until the review ends.
        </p>
      ) : null}
      <SuccessNotice show={result?.saved}>Manifest saved and synced.</SuccessNotice>
      {result?.errors.length ? (
        <div className="alert error" role="alert">
          <strong>The manifest has problems:</strong>
          <ul data-testid="manifest-errors">
            {result.errors.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="builder-grid">
        <Form method="post" className="stack">
          <CsrfInput />
          <ManifestEditor
            text={result?.text ?? text}
            checkUrl={`/portal/apps/${app.id}/manifest/lint`}
            exampleOrigin={exampleOrigin}
          />
          <div className="row">
            <button type="submit" name="intent" value="check" className="button" disabled={busy}>
              Check
            </button>
            <button type="submit" name="intent" value="save" className="button primary" disabled={busy || app.locked}>
              {busy ? "Working…" : "Save manifest"}
            </button>
          </div>
        </Form>
        <aside className="panel stack">
          {plan ? (
            <section>
              <h2>{result?.saved ? "What changed" : "What saving would change"}</h2>
              <ul className="plan" data-testid="sync-plan">
                {plan.created.map((x) => (
                  <li key={x}>
                    <span className="badge ok">create</span> <code>{x}</code>
                  </li>
                ))}
                {plan.updated.map((x) => (
                  <li key={x}>
                    <span className="badge info">update</span> <code>{x}</code>
                  </li>
                ))}
                {plan.deactivated.map((x) => (
                  <li key={x}>
                    <span className="badge warn">deactivate</span> <code>{x}</code>
                  </li>
                ))}
                {plan.created.length + plan.updated.length + plan.deactivated.length === 0 ? (
                  <li className="muted">No changes.</li>
                ) : null}
              </ul>
            </section>
          ) : null}
          {result?.framing.length ? (
            <section>
              <h2>Framing check</h2>
              <ul className="plan" data-testid="framing">
                {result.framing.map((f) => (
                  <li key={f.field}>
                    {f.ok ? <span className="badge ok">frameable</span> : <span className="badge warn">warning</span>}{" "}
                    <code>{f.field}</code>
                    {f.problem ? <div className="small muted">{f.problem}</div> : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section>
            <h2>Extensions</h2>
            {extensions.length === 0 ? (
              <p className="muted">None yet.</p>
            ) : (
              <ul className="plan">
                {extensions.map((e) => (
                  <li key={`${e.kind}:${e.key}`}>
                    <code>
                      {e.kind}:{e.key}
                    </code>{" "}
                    {e.isActive ? <span className="badge ok">active</span> : <span className="badge">deactivated</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
