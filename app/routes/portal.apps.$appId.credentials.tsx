import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { takeFlashedSecret } from "~/platform/apps/secret-flash.server";
import { CopyButton, CopyableCode } from "~/components/copy-button";
import { AppPageHeader } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Client credentials${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "ADMIN");
  const { secret, cookie } = await takeFlashedSecret(request, context.env, app.id);
  return json(
    { app: { id: app.id, name: app.name, clientId: app.clientId }, secret },
    { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
  );
}

export default function Credentials() {
  const { app, secret } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Client credentials" />
      <section className="card stack">
        <dl className="kv">
          <dt>Client ID</dt>
          <dd className="copy-row">
            <CopyableCode value={app.clientId} testId="client-id" />
          </dd>
        </dl>
        {secret ? (
          <>
            <p className="alert warning" role="alert">
              <strong>Copy the client secret now.</strong> It will not be shown again. If you lose it, regenerate it:
              the old one then stops working at once.
            </p>
            <div className="copy-row">
              <code className="secret" data-testid="client-secret">
                {secret}
              </code>
              <CopyButton value={secret} label="Copy secret" />
            </div>
            <p className="muted small">
              Use it only on your server, for the OAuth token exchange (HTTP Basic: client ID and secret). Never put it
              in a browser or a mobile app.
            </p>
          </>
        ) : (
          <p className="alert info">
            The client secret was shown once and is stored only as a hash. If you lost it, regenerate it on the{" "}
            <Link to={`/portal/apps/${app.id}`}>app page</Link>.
          </p>
        )}
        <p>
          <Link to={`/portal/apps/${app.id}`} className="button primary">
            I have saved it — continue
          </Link>
        </p>
      </section>
    </div>
  );
}
