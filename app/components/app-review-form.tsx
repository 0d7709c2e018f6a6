import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { CsrfInput } from "./csrf";
import { SubmitButton } from "./submit-button";
import { REVIEW_BODY_MAX } from "~/platform/apps/marketplace-shared";

/** The business's own review as the merchant's pages get it (serializeReview with forAuthor). */
export type OwnReview = {
  id: string;
  rating: number;
  body: string;
  hidden: boolean;
  hiddenReason?: string | null;
  reply: { body: string; createdAt: string } | null;
};

/** What our reviewers and the developer did with the business's review: the hiding reason, the reply. */
export function OwnReviewStatus({ review }: { review: OwnReview }) {
  return (
    <>
      {review.hidden ? (
        <p className="alert warning" role="status">
          Our reviewers hid this review from the marketplace: {review.hiddenReason}. You can edit it; it stays hidden
          until they look again.
        </p>
      ) : null}
      {review.reply ? (
        <div className="review-reply">
          <p className="small">
            <strong>The developer replied</strong>
          </p>
          <p className="prewrap">{review.reply.body}</p>
        </div>
      ) : null}
    </>
  );
}

/**
 * The merchant's review form (stars, text, publish or update, delete), the same on an installed
 * app's page and on the Apps page's "Previously installed" list. `installationId`, when given,
 * travels with the form (a page that lists several apps); the page's action reads `intent`
 * ("review" or "delete-review").
 */
export function AppReviewForm({
  appName,
  appSlug,
  review,
  installationId,
  error,
}: {
  appName: string;
  appSlug: string | null;
  review: OwnReview | null;
  installationId?: string;
  error?: string | null;
}) {
  const [rating, setRating] = useState<number>(review?.rating ?? 0);
  return (
    <>
      <Form method="post" className="stack" aria-label={review ? `Your review of ${appName}` : `Review ${appName}`}>
        <CsrfInput />
        <input type="hidden" name="intent" value="review" />
        {installationId ? <input type="hidden" name="installationId" value={installationId} /> : null}
        <fieldset className="star-input">
          <legend>Rating</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className={n <= rating ? "star-choice on" : "star-choice"}>
              <input
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                onChange={() => setRating(n)}
                required
              />
              <span aria-hidden>★</span>
              <span className="sr-only">
                {n} {n === 1 ? "star" : "stars"}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Your review (optional, shown with your business name)</span>
          <textarea
            name="body"
            rows={4}
            maxLength={REVIEW_BODY_MAX}
            defaultValue={review?.body ?? ""}
            placeholder={`What does ${appName} do well, and what could be better?`}
          />
        </label>
        {error ? (
          <p className="alert error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="row">
          <SubmitButton className="button primary" busyLabel="Saving…">
            {review ? "Update review" : "Publish review"}
          </SubmitButton>
          {appSlug && review && !review.hidden ? (
            <Link to={`/marketplace/${appSlug}#reviews`}>See it in the marketplace</Link>
          ) : null}
        </div>
      </Form>
      {review ? (
        <details className="confirm">
          <summary>Delete review…</summary>
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="delete-review" />
            {installationId ? <input type="hidden" name="installationId" value={installationId} /> : null}
            <SubmitButton className="button danger" busyLabel="Deleting…">
              Delete my review
            </SubmitButton>
          </Form>
        </details>
      ) : null}
    </>
  );
}
