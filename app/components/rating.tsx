import { roundedInstalls } from "~/platform/apps/marketplace-shared";
import { formatCount } from "~/platform/core/dates";

/** Star rating as text (★★★★☆) with the figure for screen readers; shared by marketplace, admin and portal. */
export function Stars({ value, label }: { value: number; label?: string }) {
  const full = Math.round(value);
  return (
    <span className="stars" role="img" aria-label={label ?? `${value} out of 5 stars`}>
      {"★".repeat(full)}
      <span className="stars-off">{"★".repeat(5 - full)}</span>
    </span>
  );
}

/** "4.3" with one decimal. */
export const oneDecimal = (avg: number) => (Math.round(avg * 10) / 10).toFixed(1);

/** "★ 4.3 · 12 reviews", or "No reviews yet". */
export function RatingSummary({ rating, count }: { rating: number | null; count: number }) {
  if (rating === null || count === 0) return <span className="rating-summary muted small">No reviews yet</span>;
  return (
    <span className="rating-summary small">
      <Stars value={rating} label={`Rated ${oneDecimal(rating)} out of 5`} /> <strong>{oneDecimal(rating)}</strong>{" "}
      <span className="muted">
        · {formatCount(count)} {count === 1 ? "review" : "reviews"}
      </span>
    </span>
  );
}

/** "Installed by 1,200+ businesses": how many businesses use an app, rounded (roundedInstalls). */
export function InstalledBy({ installs, className }: { installs: number; className: string }) {
  return (
    <span className={className}>
      Installed by {roundedInstalls(installs)} {installs === 1 ? "business" : "businesses"}
    </span>
  );
}
