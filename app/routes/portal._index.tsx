import { useStorefrontUrl } from "~/components/origins";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CsrfInput } from "~/components/csrf";
import { formAction } from "~/platform/accounts/form-action.server";
import { advanceSandboxClock, getSandboxClock } from "~/platform/devtools/clock.server";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { businessSummary } from "~/platform/catalog/summary.server";
import { StatCard } from "~/components/area-layout";
import { listNotifications } from "~/platform/apps/app-reviews.server";
import { developerProgress, type DeveloperProgress } from "~/platform/apps/progress.server";

export const meta: MetaFunction = () => [{ title: "Overview · Developer portal" }];

/** The sandbox card's "Advance the clock" (contract 19): the days from the form, 1-400. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireDeveloper(request, context);
  return formAction(request, context, async (form) => {
    const parsed = ClockDays.safeParse(form.get("advanceDays"));
    if (!parsed.success) return json({ error: "advanceDays: must be a whole number of days from 1 to 400" }, 400);
    const moved = await advanceSandboxClock(context.db, business, parsed.data);
    return json({
      advanced: moved.happened.map((h) => ({ date: h.at.slice(0, 10), what: HAPPENED[h.kind], id: h.id })),
    });
  });
}

const ClockDays = z.coerce.number().int().min(1).max(400);

/** What the clock made happen, in the developer's words (the kinds of contract 19's advance). */
const HAPPENED: Record<string, string> = {
  TRIAL_ENDED: "Trial ended",
  PERIOD_CLOSED: "Billing period closed into a test invoice",
  SUBSCRIPTION_EXPIRED: "Pending charge expired, never approved",
  DATA_ERASURE_SENT: "business.data_erasure sent",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business } = await requireDeveloper(request, context);
  const [summary, notes, progress] = await Promise.all([
    business ? businessSummary(context.db, business.id) : null,
    listNotifications(context.db, account.id, { limit: 10, offset: 0 }),
    developerProgress(context.db, account.id),
  ]);
  const notifications = notes.rows.map(({ n, appName }) => ({
    id: n.id,
    appId: n.appId,
    appName,
    type: n.type,
    rating: typeof n.data.rating === "number" ? n.data.rating : null,
    apiVersion: typeof n.data.version === "string" ? n.data.version : null,
    sunsetAt: typeof n.data.sunsetAt === "string" ? n.data.sunsetAt.slice(0, 10) : null,
    createdAt: n.createdAt.toISOString(),
  }));
  return json({
    name: account.name,
    sandbox: business ? { id: business.id, name: business.name, slug: business.slug } : null,
    clock: business?.isSandbox ? await getSandboxClock(context.db, business) : null,
    summary,
    notifications,
    progress,
    sdkUrl: `${context.env.publicUrl}/sdk/storefront-app-sdk.tgz`,
  });
}

type Step = { key: string; done: boolean; title: string; body: React.ReactNode; command?: string };

/** The developer's way from nothing to a submitted app, each step done or not by what they did. */
function steps(progress: DeveloperProgress, sdkUrl: string): Step[] {
  const app = progress.latestAppId ? `/portal/apps/${progress.latestAppId}` : "/portal/apps";
  return [
    {
      key: "app",
      done: progress.apps > 0,
      title: progress.apps > 0 ? `Create an app (you have ${progress.apps})` : "Create your first app",
      body: (
        <>
          On <Link to="/portal/apps">My apps</Link>, or with the CLI, which this platform serves with the SDK (in your
          app's folder: <code>{`npm install ${sdkUrl}`}</code>); keep its client secret safe.
        </>
      ),
      command:
        "npx storefront-apps init hello-app && cd hello-app && npx storefront-apps login && npx storefront-apps apps create --name … --slug …",
    },
    {
      key: "test-install",
      done: progress.testInstalled,
      title: "Test-install it on your sandbox",
      body: (
        <>
          Press <Link to={app}>Test-install on sandbox</Link>, or run the command: it prints the access token and the
          webhook secret.
        </>
      ),
      command: "npx storefront-apps test-install",
    },
    {
      key: "delivery",
      done: progress.delivered,
      title: "Receive your first webhook",
      body: (
        <>
          In your app's folder, <code>dev</code> runs your server, relays your test installation's webhooks to it and
          deploys <code>storefront-apps.json</code> on save; then send one (
          <Link to="/portal/docs/getting-started">Getting started</Link>).
        </>
      ),
      command: "npx storefront-apps dev   # then, in another terminal: npx storefront-apps trigger order.created",
    },
    {
      key: "manifest",
      done: progress.manifestSaved,
      title: "Declare blocks, embeds and hooks in the manifest",
      body: (
        <>
          Edit it on <Link to={`${app}/manifest`}>the app's Manifest page</Link> or in your{" "}
          <code>storefront-apps.json</code>, which <code>dev</code> deploys on save (
          <Link to="/portal/docs/extensions">Extensions</Link>).
        </>
      ),
      command: "npx storefront-apps deploy   # shows the change and makes a release",
    },
    {
      key: "submit",
      done: progress.submitted,
      title: "Submit it for review",
      body: (
        <>
          Press <Link to={app}>Submit for review</Link>; once approved it appears in the{" "}
          <Link to="/marketplace">marketplace</Link>.
        </>
      ),
    },
  ];
}

export default function PortalHome() {
  const { name, sandbox, summary, notifications, progress, sdkUrl, clock } = useLoaderData<typeof loader>();
  const done = useActionData<{ error?: string; advanced?: { date: string; what: string; id: string }[] }>();
  const all = steps(progress, sdkUrl);
  const next = all.find((s) => !s.done);
  const storefront = useStorefrontUrl();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>Welcome, {name}</h1>
        <p className="lead">Build an app, test-install it on your sandbox shop, then submit it for review.</p>
      </header>
      {sandbox && summary ? (
        <section className="card" aria-labelledby="sandbox-title">
          <div className="card-head">
            <h2 id="sandbox-title">Your sandbox business</h2>
            <span className="badge info">Sandbox</span>
          </div>
          <p>
            <strong data-testid="sandbox-name">{sandbox.name}</strong>{" "}
            <span className="muted small">({sandbox.id})</span>
          </p>
          <p className="muted">
            A private shop filled with demo data, with the merchant admin: products, orders, pages and the site builder.
            Draft apps can be test-installed here, and their blocks and embeds placed, without review.
          </p>
          <div className="stats">
            <StatCard label="Products" value={summary.products} />
            <StatCard label="Orders" value={summary.orders} hint={`${summary.openOrders} open`} />
            <StatCard label="Reviews" value={summary.reviews} />
            <StatCard label="Pages" value={summary.pages} />
          </div>
          <div className="row">
            <Link to="/admin" className="button primary" data-testid="open-sandbox-admin">
              Open sandbox admin
            </Link>
            <Link to="/admin/pages/home" className="button">
              Edit the home page
            </Link>
            <a href={storefront(`/s/${sandbox.slug}`)}>Open the sandbox storefront →</a>
          </div>

          {clock ? (
            <Form method="post" className="row wrap" aria-label="Sandbox clock">
              <CsrfInput />
              <p>
                Sandbox date: <strong data-testid="sandbox-date">{clock.now.slice(0, 10)}</strong>
                {clock.offsetSeconds ? ` (${Math.round(clock.offsetSeconds / 86400)} days ahead)` : " (real time)"}
              </p>
              <label>
                Days <input name="advanceDays" type="number" min={1} max={400} defaultValue={31} className="narrow" />
              </label>
              <button type="submit" className="button" data-testid="advance-clock">
                Advance the clock
              </button>
              {done?.error ? (
                <p className="error" role="alert">
                  {done.error}
                </p>
              ) : null}
              {done?.advanced ? (
                <div className="small" style={{ flexBasis: "100%" }} role="status" data-testid="clock-happened">
                  {done.advanced.length ? (
                    <>
                      <p>What fell due, in order:</p>
                      <ul>
                        {done.advanced.map((h) => (
                          <li key={`${h.id}-${h.what}`}>
                            {h.date}: {h.what} <code>{h.id}</code>
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <p className="muted">Nothing fell due.</p>
                  )}
                  <Link to="/admin/billing">Sandbox billing →</Link>
                </div>
              ) : null}
            </Form>
          ) : null}
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="notifications-title">
        <h2 id="notifications-title">Notifications</h2>
        {notifications.length === 0 ? (
          <p className="muted">Nothing yet. When a merchant reviews one of your apps, you are told here.</p>
        ) : (
          <ul className="notification-list">
            {notifications.map((n) => (
              <li key={n.id} data-testid="notification">
                {n.type.startsWith("api_version.") ? (
                  <>
                    <strong>
                      {n.type === "api_version.sunset_soon"
                        ? `API version ${n.apiVersion} ends on ${n.sunsetAt}`
                        : `API version ${n.apiVersion} is deprecated`}
                    </strong>{" "}
                    · <Link to={`/portal/apps/${n.appId}/api`}>{n.appName} uses it: see what an upgrade changes</Link>
                    {n.type === "api_version.deprecated" ? ` (sunset ${n.sunsetAt})` : ""}{" "}
                  </>
                ) : (
                  <>
                    <strong>{n.type === "app_review.created" ? "New review" : "Review updated"}</strong> of{" "}
                    <Link to={`/portal/apps/${n.appId}/reviews`}>{n.appName}</Link>
                    {n.rating ? ` · ${n.rating} ${n.rating === 1 ? "star" : "stars"}` : ""}{" "}
                  </>
                )}
                <span className="muted small">
                  {new Date(n.createdAt).toLocaleString("en-US", {
                    dateStyle: "medium",
                    timeStyle: "short",
                    timeZone: "UTC",
                  })}{" "}
                  UTC · <code>{n.type}</code>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2 id="next-steps">Next steps</h2>
        <p className="muted small">
          {next
            ? `${all.filter((s) => s.done).length} of ${all.length} done.`
            : "All done: your app is submitted. Follow its review on its page."}
        </p>
        <ol className="progress-steps" aria-labelledby="next-steps">
          {all.map((s) => (
            <li
              key={s.key}
              data-step={s.key}
              className={s.done ? "done" : s === next ? "next" : undefined}
              aria-current={s === next ? "step" : undefined}
            >
              <div className="progress-step-head">
                <strong>{s.title}</strong>{" "}
                {s.done ? (
                  <span className="badge ok">Done</span>
                ) : s === next ? (
                  <span className="badge info">Next</span>
                ) : null}
              </div>
              {s.done ? null : (
                <>
                  <p className="small">{s.body}</p>
                  {s.command ? <pre className="small">{s.command}</pre> : null}
                </>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
