/**
 * Leaving with unsaved changes: another page of the admin asks first (useBlocker), the browser asks
 * with its own dialog (beforeunload).
 */
import { useEffect, useRef } from "react";
import { useBlocker } from "@remix-run/react";

/** Guards a dirty page; render the returned dialog (null when nobody is leaving). */
export function useLeaveGuard(dirty: boolean): React.ReactNode {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  // once the merchant chose to leave, a navigation that becomes a document load asks no second time
  const leaving = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (leaving.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);
  if (blocker.state !== "blocked") return null;
  return (
    <LeaveDialog
      onStay={() => blocker.reset?.()}
      onLeave={() => {
        leaving.current = true;
        blocker.proceed?.();
      }}
    />
  );
}

function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const stay = useRef<HTMLButtonElement>(null);
  const staying = useRef(onStay);
  staying.current = onStay;
  useEffect(() => {
    // the safe choice has the focus; Escape stays too
    stay.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") staying.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <div className="sb-dialog-backdrop">
      {/* the dialog keeps the keyboard's focus inside itself (Tab wraps), as a modal dialog must */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        className="sb-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="sb-leave-title"
        aria-describedby="sb-leave-text"
        onKeyDown={(e) => {
          // the focus stays in the dialog
          if (e.key !== "Tab") return;
          const buttons = [...e.currentTarget.querySelectorAll("button")];
          const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
          e.preventDefault();
          buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length]?.focus();
        }}
      >
        <h2 id="sb-leave-title">Leave without saving?</h2>
        <p id="sb-leave-text">Your changes to this page are not saved. If you leave now, they are lost.</p>
        <div className="row">
          <button type="button" className="button primary" ref={stay} onClick={onStay}>
            Stay on this page
          </button>
          <button type="button" className="button danger" onClick={onLeave}>
            Leave without saving
          </button>
        </div>
      </div>
    </div>
  );
}
