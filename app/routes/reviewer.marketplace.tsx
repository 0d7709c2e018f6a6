import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { desc, eq } from "drizzle-orm";
import { appReviews, apps, businesses } from "../../db/schema";
import { requireReviewer } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { describeZodError, type ApiError } from "~/platform/core/http.server";
import { hideReview, hideSchema, setStaffPick, unhideReview } from "~/platform/apps/app-reviews.server";
import { listMarketplaceCards, listStaffPicks } from "~/platform/apps/marketplace.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { RatingSummary, Stars } from "~/components/rating";
import { DataTable, ErrorAlert, PageHeader, SearchForm, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Marketplace curation · Review console" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireReviewer(request, context);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  const [picks, { rows: candidates }, latest] = await Promise.all([
    listStaffPicks(context.db, 20),
    listMarketplaceCards(context.db, { q: q || undefined, sort: "popular", limit: 20 }),
    context.db
      .select({
        id: appReviews.id,
        rating: appReviews.rating,
        body: appReviews.body,
        createdAt: appReviews.createdAt,
        hiddenAt: appReviews.hiddenAt,
        hiddenReason: appReviews.hiddenReason,
        appName: apps.name,
        appSlug: apps.slug,
        businessName: businesses.name,
      })
      .from(appReviews)
      .innerJoin(apps, eq(apps.id, appReviews.appId))
      .innerJoin(businesses, eq(businesses.id, appReviews.businessId))
      .orderBy(desc(appReviews.updatedAt), desc(appReviews.id))
      .limit(30),
  ]);
  const picked = new Set(picks.map((p) => p.id));
  return json({
    q,
    picks,
    candidates: candidates.map((c) => ({ ...c, picked: picked.has(c.id) })),
    latest: latest.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      hidden: !!r.hiddenAt,
      hiddenAt: undefined,
    })),
  });
}

const refused = { error: (e: ApiError) => ({ error: e.message, reviewId: null as string | null }) };

export async function action({ request, context }: ActionFunctionArgs) {
  const { account } = await requireReviewer(request, context);
  return formAction(request, context, refused, async (form) => {
    const intent = form.get("intent");
    if (intent === "pick" || intent === "unpick") {
      await setStaffPick(context.db, String(form.get("appId") ?? ""), intent === "pick");
      return redirect(`/reviewer/marketplace?done=${intent}`);
    }
    if (intent === "hide") {
      const reviewId = String(form.get("reviewId") ?? "");
      const parsed = hideSchema.safeParse({ reason: String(form.get("reason") ?? "") });
      if (!parsed.success)
        return json({ error: `Reason ${describeZodError(parsed.error).replace(/^reason: /, "")}`, reviewId }, 400);
      await hideReview(context.db, account.id, reviewId, parsed.data.reason);
      return redirect("/reviewer/marketplace?done=hidden");
    }
    if (intent === "unhide") {
      await unhideReview(context.db, String(form.get("reviewId") ?? ""));
      return redirect("/reviewer/marketplace?done=unhidden");
    }
    return json({ error: "Unknown action.", reviewId: null }, 400);
  });
}

const DONE: Record<string, string> = {
  pick: "Added to Staff picks.",
  unpick: "Removed from Staff picks.",
  hidden: "The review is hidden; its author sees your reason.",
  unhidden: "The review is visible again.",
};

export default function ReviewerMarketplace() {
  const { q, picks, candidates, latest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <div className="stack-lg">
      <PageHeader title="Marketplace curation" className="page-head">
        Choose the Staff picks row of the marketplace and hide reviews that break the review policy.
      </PageHeader>
      <SuccessNotice show={done && DONE[done] && !result}>{done ? DONE[done] : null}</SuccessNotice>
      <ErrorAlert error={result?.reviewId ? null : result?.error} />

      <section className="card stack" aria-labelledby="picks-title">
        <h2 id="picks-title">Staff picks ({picks.length})</h2>
        {picks.length === 0 ? (
          <p className="muted">No staff picks yet: the marketplace shows no Staff picks row.</p>
        ) : null}
        <SearchForm
          q={q}
          maxLength={100}
          placeholder="Find an approved app"
          label="Find an approved app"
          resetOnQuery={false}
        />
        <DataTable
          labels={false}
          rows={[...picks.map((p) => ({ ...p, picked: true })), ...candidates.filter((c) => !c.picked)]}
          rowKey={(a) => a.id}
          columns={[
            {
              head: "App",
              cell: (a) => (
                <>
                  <Link to={`/marketplace/${a.slug}`}>{a.name}</Link>{" "}
                  {a.picked ? <span className="badge ok">Staff pick</span> : null}
                </>
              ),
            },
            { head: "Rating", cell: (a) => <RatingSummary rating={a.rating} count={a.ratingCount} /> },
            { head: "Installs", cell: (a) => a.activeInstalls.toLocaleString("en-US") },
            {
              head: "",
              cell: (a) => (
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="appId" value={a.id} />
                  <SubmitButton
                    name="intent"
                    value={a.picked ? "unpick" : "pick"}
                    className="button small"
                    busyLabel="Saving…"
                  >
                    {a.picked ? `Unpick ${a.name}` : `Pick ${a.name}`}
                  </SubmitButton>
                </Form>
              ),
            },
          ]}
        />
      </section>

      <section className="card stack" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest reviews</h2>
        {latest.length === 0 ? (
          <p className="muted">No app has been reviewed yet.</p>
        ) : (
          <ul className="review-list">
            {latest.map((r) => (
              <li key={r.id} className="review-item stack-sm" data-testid="curation-review">
                <div className="review-head">
                  <Stars value={r.rating} />
                  <strong>{r.businessName}</strong> on <Link to={`/marketplace/${r.appSlug}`}>{r.appName}</Link>
                  {r.hidden ? <span className="badge warn">hidden: {r.hiddenReason}</span> : null}
                </div>
                {r.body ? <p className="prewrap">{r.body}</p> : null}
                {r.hidden ? (
                  <Form method="post">
                    <CsrfInput />
                    <input type="hidden" name="reviewId" value={r.id} />
                    <SubmitButton name="intent" value="unhide" className="button small" busyLabel="Saving…">
                      Show again
                    </SubmitButton>
                  </Form>
                ) : (
                  <details className="confirm">
                    <summary>Hide this review…</summary>
                    <Form method="post" className="stack-sm">
                      <CsrfInput />
                      <input type="hidden" name="reviewId" value={r.id} />
                      <label className="field">
                        <span className="small">Reason (the author sees it)</span>
                        <input name="reason" maxLength={1000} required />
                      </label>
                      <ErrorAlert error={result?.reviewId === r.id ? result.error : null} />
                      <SubmitButton name="intent" value="hide" className="button danger small" busyLabel="Hiding…">
                        Hide review
                      </SubmitButton>
                    </Form>
                  </details>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
