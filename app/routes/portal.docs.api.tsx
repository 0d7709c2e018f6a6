import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { apiReference } from "~/platform/docs/api-reference";
import { appApiDocument } from "~/operations.server";
import { now } from "~/platform/core/clock.server";
import { changelogPath, currentVersion, supportedVersions } from "~/platform/versions/registry";
import { ApiReference } from "~/components/api-reference";

export const meta: MetaFunction = () => [{ title: "App API reference · Developer portal" }];

/** The App API reference in one supported API version (`?version=`, the current one by default). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  const t = now();
  const versions = supportedVersions(t)
    .map((s) => ({ version: s.version, status: s.status }))
    .reverse();
  const asked = new URL(request.url).searchParams.get("version");
  const version = versions.some((v) => v.version === asked) ? asked! : currentVersion(t);
  return json({ reference: apiReference(appApiDocument(context.env.publicUrl, version)), version, versions });
}

export default function AppApiReference() {
  const { reference, version, versions } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <nav className="app-links" aria-label="API versions" data-testid="version-switch">
        <span className="muted small">API version:</span>
        {versions.map((v) => (
          <Link
            key={v.version}
            to={`?version=${v.version}`}
            className={`button small${v.version === version ? " primary" : ""}`}
            aria-current={v.version === version ? "page" : undefined}
          >
            {v.version} {v.status === "CURRENT" ? "(current)" : v.status === "DEPRECATED" ? "(deprecated)" : ""}
          </Link>
        ))}
        <Link to={changelogPath()} className="small">
          Changelog
        </Link>
      </nav>
      <ApiReference
        data={reference}
        heading={`App API reference · ${version}`}
        documentUrl={`/app-api/openapi.json?version=${version}`}
      />
    </div>
  );
}
