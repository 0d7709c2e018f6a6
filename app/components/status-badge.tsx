export function AppStatusBadge({ status, updateInReview }: { status: string; updateInReview?: boolean }) {
  const tone = status === "APPROVED" ? "ok" : status === "PENDING_REVIEW" ? "warn" : "";
  const label = status === "PENDING_REVIEW" ? "In review" : status === "APPROVED" ? "Published" : "Draft";
  return (
    <>
      <span className={`badge ${tone}`} data-testid="app-status">
        {label}
      </span>
      {updateInReview ? <span className="badge warn"> Update in review</span> : null}
    </>
  );
}

/** The badge tone of each order status (the CSS classes of `.badge`). */
export const ORDER_TONE: Record<string, string> = {
  PENDING: "warn",
  CONFIRMED: "info",
  PREPARING: "info",
  READY: "info",
  IN_DELIVERY: "info",
  DELIVERED: "ok",
  CANCELLED: "danger",
};

/** An order status in words, by the order's delivery method when given (platform/orders/labels.ts). */
export { orderStatusLabel as statusLabel } from "~/platform/orders/labels";
