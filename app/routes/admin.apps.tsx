import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import {
  approveAddedScopes,
  listBusinessInstallations,
  uninstallForBusiness,
} from "~/platform/installs/installs.server";
import { SCOPES, type Scope } from "~/platform/shapes/app-catalog";
import { EmptyState } from "~/components/area-layout";
import { CsrfInput } from "~/components/csrf";
import { AppIcon } from "~/components/app-icon";
import { SubmitButton } from "~/components/submit-button";
import { Stars } from "~/components/rating";
import { eq } from "drizzle-orm";
import { appReviews } from "../../db/schema";
import {
  deleteReview,
  dismissReviewPrompt,
  previouslyInstalledApps,
  putReview,
  REVIEW_INVITE_AFTER_MS,
} from "~/platform/apps/app-reviews.server";
import { AppReviewForm, OwnReviewStatus } from "~/components/app-review-form";
import type { ApiError } from "~/platform/core/http.server";
import { readReviewForm } from "~/components/app-review-form.server";
import { now } from "~/platform/core/clock.server";
import { Card, DataTable, ErrorAlert, PageHeader, SuccessNotice } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";

export const meta: MetaFunction = () => [{ title: "Apps · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business, sandbox } = await requireMerchant(request, context, "apps");
  const [{ rows }, reviews, former] = await Promise.all([
    listBusinessInstallations(context.db, business.id, { limit: 100, offset: 0 }),
    context.db
      .select({ appId: appReviews.appId, rating: appReviews.rating, hidden: appReviews.hiddenAt })
      .from(appReviews)
      .where(eq(appReviews.businessId, business.id)),
    previouslyInstalledApps(context.db, business.id),
  ]);
  const reviewOf = new Map(reviews.map((r) => [r.appId, r]));
  const t = now().getTime();
  const view = rows.map((r) => ({
    id: r.installation.id,
    appName: r.appName,
    appSlug: r.appSlug,
    iconUrl: r.iconUrl,
    status: r.installation.status,
    scopes: r.installation.scopes,
    addedScopes: r.installation.needsReConsent
      ? r.approvedScopes.filter((s) => !r.installation.scopes.includes(s))
      : [],
    needsReConsent: r.installation.needsReConsent,
    isTestInstall: r.installation.isTestInstall,
    installedAt: r.installation.installedAt.toISOString(),
    uninstalledAt: r.installation.uninstalledAt?.toISOString() ?? null,
    erasureScheduledAt: r.installation.erasureScheduledAt?.toISOString() ?? null,
    erasureDeliveredAt: r.installation.erasureDeliveredAt?.toISOString() ?? null,
    review: reviewOf.has(r.installation.appId)
      ? { rating: reviewOf.get(r.installation.appId)!.rating, hidden: !!reviewOf.get(r.installation.appId)!.hidden }
      : null,
    // after 7 days of use, once, until dismissed: an invitation to review (decision 022)
    inviteReview:
      !sandbox &&
      !r.installation.isTestInstall &&
      !reviewOf.has(r.installation.appId) &&
      !r.installation.reviewPromptDismissedAt &&
      t - r.installation.installedAt.getTime() >= REVIEW_INVITE_AFTER_MS,
  }));
  return json({
    active: view.filter((v) => v.status === "ACTIVE"),
    former,
    history: view.filter((v) => v.status !== "ACTIVE"),
    sandbox,
  });
}

/** A refused form: the message, and for a review of a former app which card shows it. */
const refused = {
  error: (e: ApiError, form: FormData) => ({
    error: e.message,
    installationId: form.get("intent") === "review" ? String(form.get("installationId") ?? "") : null,
  }),
};

export async function action({ request, context }: ActionFunctionArgs) {
  const { account, business } = await requireMerchant(request, context, "apps");
  const by = { account, ip: clientAddress(request) };
  return formAction(request, context, refused, async (form) => {
    const installationId = String(form.get("installationId") ?? "");
    if (form.get("intent") === "uninstall") {
      await uninstallForBusiness(context.db, business.id, installationId, by);
      return redirect("/admin/apps?done=uninstalled");
    }
    if (form.get("intent") === "dismiss-review-invite") {
      await dismissReviewPrompt(context.db, business.id, installationId);
      return redirect("/admin/apps");
    }
    // a review of an app the business used before ("Previously installed"); installed apps are
    // reviewed on their own page (admin.apps_.$installationId.tsx)
    if (form.get("intent") === "review") {
      const review = readReviewForm(form);
      if (!review.ok) return json({ error: review.error, installationId }, 400);
      await putReview(context.db, business.id, installationId, review.input);
      return redirect(`/admin/apps?done=reviewed#former-${installationId}`);
    }
    if (form.get("intent") === "delete-review") {
      await deleteReview(context.db, business.id, installationId);
      return redirect(`/admin/apps?done=review-deleted#former-${installationId}`);
    }
    if (form.get("intent") === "consent") {
      await approveAddedScopes(context.db, business.id, installationId, by);
      return redirect("/admin/apps?done=consented");
    }
    return json({ error: "Unknown action", installationId: null }, 400);
  });
}

export default function AdminApps() {
  const { active, former, history, sandbox } = useLoaderData<typeof loader>();
  const { dates } = useShopFormat();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <div className="stack-lg">
      <PageHeader
        title="Apps"
        action={
          sandbox ? (
            <Link to="/portal/apps" className="button">
              Test-install your apps
            </Link>
          ) : (
            <Link to="/marketplace" className="button">
              Add apps
            </Link>
          )
        }
      >
        {sandbox
          ? "Your test installations on the sandbox: their settings and embeds. Test-install or uninstall an app from its page in the developer portal."
          : "Apps installed on your business, what they may do, and what happened to your data when you removed one."}
      </PageHeader>
      <ErrorAlert error={data?.installationId ? null : data?.error} />
      <SuccessNotice show={done === "uninstalled"}>
        The app was uninstalled. Its access was revoked at once; it will be asked to erase your data in 48 hours.
      </SuccessNotice>
      <SuccessNotice show={done === "consented"}>The new permissions were granted.</SuccessNotice>
      <SuccessNotice show={done === "reviewed" && !data}>
        Your review is saved. It shows on the app's marketplace page.
      </SuccessNotice>
      <SuccessNotice show={done === "review-deleted" && !data}>Your review was deleted.</SuccessNotice>

      {active.length === 0 ? (
        <EmptyState title="No apps installed">
          {sandbox ? (
            <p>
              Test-install one of <Link to="/portal/apps">your apps</Link> to see its blocks, embeds and settings here.
            </p>
          ) : (
            <p>
              Find payment, shipping, loyalty and analytics apps in the <Link to="/marketplace">marketplace</Link>.
            </p>
          )}
        </EmptyState>
      ) : (
        <ul className="install-list">
          {active.map((i) => (
            <li key={i.id} className="card stack" data-testid="installed-app">
              <div className="section-title">
                <div className="installed-head">
                  <AppIcon name={i.appName} iconUrl={i.iconUrl} />
                  <div>
                    <h2>
                      <Link to={`/admin/apps/${i.id}`}>{i.appName}</Link>{" "}
                      {i.isTestInstall ? <span className="badge info">test install</span> : null}
                    </h2>
                    <p className="muted small">Installed {dates.dateTime(i.installedAt)}</p>
                  </div>
                </div>
                <div className="installed-actions">
                  <Link to={`/admin/apps/${i.id}`} className="button small" aria-label={`Settings of ${i.appName}`}>
                    Settings
                  </Link>
                  <details className="confirm">
                    <summary>Uninstall…</summary>
                    <p className="muted small">
                      {i.appName} loses access at once, its blocks leave your pages and its widgets leave your
                      storefront. In 48 hours it is told to erase your data.
                    </p>
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="installationId" value={i.id} />
                      <SubmitButton name="intent" value="uninstall" className="button danger" busyLabel="Uninstalling…">
                        Uninstall {i.appName}
                      </SubmitButton>
                    </Form>
                  </details>
                </div>
              </div>
              {i.review ? (
                <p className="small review-own">
                  Your review: <Stars value={i.review.rating} label={`${i.review.rating} out of 5 stars`} />{" "}
                  {i.review.hidden ? <span className="badge warn">hidden by our reviewers</span> : null}{" "}
                  <Link to={`/admin/apps/${i.id}#review`}>Edit your review</Link>
                </p>
              ) : null}
              {i.inviteReview ? (
                <div className="alert info review-invite" role="note" data-testid="review-invite">
                  <p>
                    <strong>You have used {i.appName} for a week.</strong> A short review helps other businesses choose
                    apps.
                  </p>
                  <div className="row">
                    <Link to={`/admin/apps/${i.id}#review`} className="button primary small">
                      Review {i.appName}
                    </Link>
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="installationId" value={i.id} />
                      <SubmitButton
                        name="intent"
                        value="dismiss-review-invite"
                        className="button small"
                        busyLabel="Dismissing…"
                      >
                        Not now
                      </SubmitButton>
                    </Form>
                  </div>
                </div>
              ) : null}
              {i.needsReConsent ? (
                <div className="alert warning" role="alert">
                  <strong>{i.appName} asks for new permissions.</strong>
                  <ul>
                    {i.addedScopes.map((s) => (
                      <li key={s}>{SCOPES[s as Scope] ?? s}</li>
                    ))}
                  </ul>
                  <p className="small">Until you approve, it keeps only its current permissions.</p>
                  <Form method="post">
                    <CsrfInput />
                    <input type="hidden" name="installationId" value={i.id} />
                    <SubmitButton name="intent" value="consent" className="button primary" busyLabel="Approving…">
                      Approve new permissions
                    </SubmitButton>
                  </Form>
                </div>
              ) : null}
              <div>
                <strong className="small">Permissions</strong>
                <ul className="perm-list">
                  {i.scopes.map((s) => (
                    <li key={s}>
                      {SCOPES[s as Scope] ?? s} <code className="muted small">{s}</code>
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          ))}
        </ul>
      )}

      {former.length ? (
        <section className="stack" aria-labelledby="former-title">
          <div>
            <h2 id="former-title">Previously installed</h2>
            <p className="muted">Apps you used before. Your review still helps other businesses choose.</p>
          </div>
          <ul className="install-list">
            {former.map((f) => (
              <li key={f.appId} id={`former-${f.installationId}`} className="card stack" data-testid="former-app">
                <div className="installed-head">
                  <AppIcon name={f.appName} iconUrl={f.iconUrl} />
                  <div>
                    <h3>{f.appSlug ? <Link to={`/marketplace/${f.appSlug}`}>{f.appName}</Link> : f.appName}</h3>
                    <p className="muted small">
                      Used {dates.day(f.firstInstalledAt)} – {dates.day(f.lastUninstalledAt)}
                    </p>
                  </div>
                </div>
                {f.reviewBlocked && !f.review ? (
                  <p className="muted small">{f.reviewBlocked}</p>
                ) : f.review ? (
                  <>
                    <p className="small review-own">
                      Your review: <Stars value={f.review.rating} label={`${f.review.rating} out of 5 stars`} />{" "}
                      {f.review.hidden ? <span className="badge warn">hidden by our reviewers</span> : null}
                    </p>
                    <OwnReviewStatus review={f.review} />
                    <details className="confirm" open={data?.installationId === f.installationId}>
                      <summary>Edit your review of {f.appName}…</summary>
                      <AppReviewForm
                        appName={f.appName}
                        appSlug={f.appSlug}
                        review={f.review}
                        installationId={f.installationId}
                        error={data?.installationId === f.installationId ? data.error : null}
                      />
                    </details>
                  </>
                ) : (
                  <AppReviewForm
                    appName={f.appName}
                    appSlug={f.appSlug}
                    review={null}
                    installationId={f.installationId}
                    error={data?.installationId === f.installationId ? data.error : null}
                  />
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <Card title="Removed apps" className="stack">
        {history.length === 0 ? (
          <p className="muted">No app has been uninstalled.</p>
        ) : (
          <DataTable
            rows={history}
            rowKey={(i) => i.id}
            columns={[
              { head: "App", cell: (i) => i.appName },
              { head: "Installed", cell: (i) => dates.dateTime(i.installedAt) },
              { head: "Uninstalled", cell: (i) => dates.dateTime(i.uninstalledAt) },
              {
                head: "Data erasure",
                cell: (i) =>
                  i.erasureDeliveredAt
                    ? `Requested ${dates.dateTime(i.erasureDeliveredAt)} ✓`
                    : i.erasureScheduledAt
                      ? `Scheduled for ${dates.dateTime(i.erasureScheduledAt)}`
                      : "Cancelled: the app was reinstalled",
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
