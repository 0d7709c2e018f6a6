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
