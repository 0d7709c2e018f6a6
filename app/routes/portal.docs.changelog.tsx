import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { now } from "~/platform/core/clock.server";
import { DEPRECATED_MONTHS, SUPPORT_MONTHS, VERSIONS, versionStates } from "~/platform/versions/registry";

export const meta: MetaFunction = () => [{ title: "API changelog · Developer portal" }];

/** The API versions and their changes, newest first, built from the registry (issue 32). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  const states = versionStates(now());
  return json({
    versions: [...VERSIONS].reverse().map((v) => {
      const s = states.find((x) => x.version === v.version);
      return {
        ...v,
        status: s?.status ?? "UPCOMING",
        sunsetAt: s?.sunsetAt?.toISOString().slice(0, 10) ?? null,
        deprecatedAt: s?.deprecatedAt?.toISOString().slice(0, 10) ?? null,
      };
    }),
  });
}

export default function Changelog() {
  const { versions } = useLoaderData<typeof loader>();
  return (
    <article className="stack-lg">
      <header className="stack">
        <h1>API changelog</h1>
        <p className="lead">
          The App API, its webhooks and hook calls come in dated versions. Your app is pinned to one (set it on the
          app's <em>API version &amp; health</em> page, with <code>PATCH /developer/apps/&lt;id&gt;</code> or{" "}
          <code>storefront-apps version --set</code>); a request can name another with the <code>Api-Version</code>{" "}
          header, and every answer names its version. A version stays supported for at least {SUPPORT_MONTHS} months
          after the next one is released; in its last {DEPRECATED_MONTHS} months it is deprecated (answers carry{" "}
          <code>Deprecation</code>, <code>Sunset</code> and <code>Link</code> headers). After its sunset, App API calls
          in it are refused with 410; webhooks and hook calls go out in the oldest supported version.{" "}
          <Link to="/portal/docs/api">API reference</Link> · <code>GET /app-api/versions</code>
        </p>
      </header>
      {versions.map((v) => (
        <section key={v.version} id={`v${v.version}`} className="card stack" data-testid="changelog-version">
          <div className="section-title">
            <h2>{v.version}</h2>
            <span className={`badge ${v.status === "CURRENT" ? "ok" : v.status === "DEPRECATED" ? "warn" : ""}`}>
              {v.status}
            </span>
          </div>
          <p className="muted small">
            Released {v.releasedAt}
            {v.deprecatedAt ? ` · deprecated from ${v.deprecatedAt}` : ""}
            {v.sunsetAt ? ` · sunset ${v.sunsetAt}` : ""}
          </p>
          <ul className="stack">
            {v.changes.map((c) => (
              <li key={c.anchor} id={c.anchor}>
                {c.summary}
                {c.details ? <p className="muted small">{c.details}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}
