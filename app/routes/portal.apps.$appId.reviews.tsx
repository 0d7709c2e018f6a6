import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { listAppReviews, replySchema, replyToReview } from "~/platform/apps/app-reviews.server";
import { REVIEW_BODY_MAX } from "~/platform/apps/marketplace-shared";
import { describeZodError, type ApiError } from "~/platform/core/http.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { RatingSummary, Stars } from "~/components/rating";
import { Pagination } from "~/components/pagination";
import { AppPageHeader, ErrorAlert, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Reviews · Developer portal" }];

const PER_PAGE = 20;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const pageParam = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const { rows, total } = await listAppReviews(context.db, app.id, {
    limit: PER_PAGE,
    offset: (page - 1) * PER_PAGE,
    includeHidden: true,
  });
  return json({
    app: {
      id: app.id,
      name: app.name,
      slug: app.slug,
      status: app.status,
      rating: app.ratingAvg === null ? null : Number(app.ratingAvg),
      ratingCount: app.ratingCount,
    },
    reviews: rows,
    total,
    page,
    pages: Math.max(1, Math.ceil(total / PER_PAGE)),
  });
}

/**
 * The reply's error beside the review it answers. A 409 means answered meanwhile (another tab, a
 * teammate): the page then shows that reply, and the text that was not published, so that nothing
 * typed is lost.
 */
const refused = {
  error: (e: ApiError, form: FormData) => ({
    reviewId: String(form.get("reviewId") ?? ""),
    error: e.message,
    unsent: e.status === 409 ? String(form.get("body") ?? "") : null,
  }),
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app } = await requireDeveloperApp(request, context, params.appId, "DEVELOPER");
  return formAction(request, context, refused, async (form) => {
    const reviewId = String(form.get("reviewId") ?? "");
    const parsed = replySchema.safeParse({ body: String(form.get("body") ?? "") });
    if (!parsed.success)
      return json(
        { reviewId, error: `Reply ${describeZodError(parsed.error).replace(/^body: /, "")}`, unsent: null },
        400,
      );
    await replyToReview(context.db, account.id, app.id, reviewId, parsed.data.body);
    return redirect(`/portal/apps/${app.id}/reviews?replied=${encodeURIComponent(reviewId)}#${reviewId}`);
  });
}

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export default function AppReviews() {
  const { app, reviews, total, page, pages } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="stack-lg">
      <AppPageHeader
        app={app}
        title="Reviews"
        className="stack"
        extra={<RatingSummary rating={app.rating} count={app.ratingCount} />}
      >
        What merchants who installed {app.name} say. You can answer each review once, publicly, on the marketplace page.
      </AppPageHeader>
      <SuccessNotice show={params.get("replied") && !result}>Your reply is published.</SuccessNotice>
      {total === 0 ? (
        <p className="alert info">
          {app.status === "APPROVED"
            ? "No reviews yet. Merchants with a production installation can review the app from their Apps page."
            : "Reviews start once the app is approved and merchants install it."}
        </p>
      ) : (
        <div className="card">
          <ul className="review-list">
            {reviews.map((r) => (
              <li key={r.id} id={r.id} className="review-item stack-sm" data-testid="portal-review">
                <div className="review-head">
                  <Stars value={r.rating} label={`${r.rating} out of 5 stars`} />
                  <strong>{r.businessName}</strong>
                  <span className="muted small">{dateText(r.createdAt)}</span>
                  {r.hidden ? <span className="badge warn">hidden: {r.hiddenReason}</span> : null}
                </div>
                {r.body ? <p className="prewrap">{r.body}</p> : <p className="muted small">No text, rating only.</p>}
                {r.reply ? (
                  <>
                    {result?.unsent && result.reviewId === r.id ? (
                      <div className="alert warning stack-sm" role="alert">
                        <p>
                          This review was already answered (in another tab or by a teammate). A review is answered once,
                          so your text was not published; the reply below is the one merchants see.
                        </p>
                        <details>
                          <summary>Your text that was not published</summary>
                          <p className="prewrap">{result.unsent}</p>
                        </details>
                      </div>
                    ) : null}
                    <div className="review-reply" data-testid="portal-reply">
                      <p className="small">
                        <strong>Your reply</strong> <span className="muted">{dateText(r.reply.createdAt)}</span>
                      </p>
                      <p className="prewrap">{r.reply.body}</p>
                    </div>
                  </>
                ) : (
                  <Form method="post" className="stack-sm">
                    <CsrfInput />
                    <input type="hidden" name="reviewId" value={r.id} />
                    <label className="field">
                      <span className="small">Reply to {r.businessName} (once, public)</span>
                      <textarea name="body" rows={2} maxLength={REVIEW_BODY_MAX} required />
                    </label>
                    <ErrorAlert error={result?.reviewId === r.id ? result.error : null} />
                    <div>
                      <SubmitButton className="button small" busyLabel="Publishing…">
                        Publish reply
                      </SubmitButton>
                    </div>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Pagination page={page} pages={pages} path={`/portal/apps/${app.id}/reviews`} />
    </div>
  );
}
