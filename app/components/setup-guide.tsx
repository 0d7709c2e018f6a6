/**
 * The setup guide on the admin's first screen (decision 061): the shop's first steps, each ticked
 * from what the shop holds, with the place to do it; "Hide the guide" closes it for the business.
 */
import { Form, Link } from "@remix-run/react";
import { CsrfInput } from "./csrf";
import { SubmitButton } from "./submit-button";
import { useStorefrontUrl } from "./origins";

export type SetupGuideView = {
  steps: { key: string; title: string; description: string; href: string; action: string; done: boolean }[];
  doneCount: number;
};

export function SetupGuide({ guide, shopPath }: { guide: SetupGuideView; shopPath: string }) {
  const storefront = useStorefrontUrl();
  const total = guide.steps.length;
  const allDone = guide.doneCount === total;
  return (
    <section className="card stack setup-guide" aria-labelledby="setup-head" data-testid="setup-guide">
      <div className="section-title">
        <h2 id="setup-head">{allDone ? "Your shop is set up" : "Set up your shop"}</h2>
        <span className="muted small" data-testid="setup-progress">
          {`${guide.doneCount} of ${total} done`}
        </span>
      </div>
      <progress className="setup-progress" max={total} value={guide.doneCount} aria-labelledby="setup-head" />
      <ol className="setup-steps">
        {guide.steps.map((s) => {
          const href = s.key === "testOrder" ? storefront(shopPath) : s.href;
          return (
            <li
              key={s.key}
              className={s.done ? "setup-step is-done" : "setup-step"}
              data-testid={`setup-step-${s.key}`}
            >
              <span className="setup-check" aria-hidden="true">
                {s.done ? "✓" : ""}
              </span>
              <div className="setup-text">
                <strong>{s.title}</strong>
                <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
                <span className="muted small">{s.description}</span>
              </div>
              {s.done ? (
                <span className="muted small setup-done">Done</span>
              ) : href.startsWith("/") ? (
                <Link to={href} className="button small">
                  {s.action}
                </Link>
              ) : (
                <a href={href} className="button small">
                  {s.action}
                </a>
              )}
            </li>
          );
        })}
      </ol>
      <Form method="post" action="/admin/setup-guide">
        <CsrfInput />
        <SubmitButton name="intent" value="dismiss" className="button small subtle" busyLabel="Hiding…">
          Hide the guide
        </SubmitButton>
      </Form>
    </section>
  );
}
