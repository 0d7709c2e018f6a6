import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getMarketplaceApp } from "~/platform/apps/apps.server";
import { CATEGORY_LABELS, SCOPES, type Category, type Scope } from "~/platform/apps/catalog";
import { AppIcon } from "~/components/app-icon";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.app.name} · Marketplace · Storefront Apps` : "App not found · Storefront Apps" },
  ...(data ? [{ name: "description", content: data.app.description }] : []),
];

export async function loader({ context, params }: LoaderFunctionArgs) {
  const row = await getMarketplaceApp(context.db, params.slug ?? "");
  if (!row) throw new Response("App not found", { status: 404 });
  const { app, developerName } = row;
  // Only what the public page shows: never credentials, review notes or the manifest.
  return json({
    app: {
      name: app.name,
      slug: app.slug,
      description: app.description,
      category: app.category,
      version: app.version,
      iconUrl: app.iconUrl,
      screenshots: app.screenshots.slice(0, 5),
      approvedScopes: app.approvedScopes,
      developerName,
    },
  });
}

const isWebUrl = (url: string | null | undefined): url is string => typeof url === "string" && /^https?:\/\//i.test(url);
const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

export default function MarketplaceApp() {
  const { app } = useLoaderData<typeof loader>();
  const screenshots = app.screenshots.filter(isWebUrl);
  return (
    <main id="main" tabIndex={-1} className="page stack-lg">
      <p className="small"><Link to="/marketplace">← Back to the marketplace</Link></p>

      <header className="app-head">
        <AppIcon name={app.name} iconUrl={app.iconUrl} large />
        <div className="app-head-text">
          <h1>{app.name}</h1>
          <p className="muted">by {app.developerName}</p>
          <div className="meta-row">
            <span className="badge">{categoryLabel(app.category)}</span>
            <span className="muted small">Version {app.version}</span>
          </div>
        </div>
        <div className="app-head-actions">
          <Link to={`/marketplace/${app.slug}/install`} className="button primary large">Install</Link>
        </div>
      </header>

      <div className="detail-grid">
        <div className="stack-lg">
          <section className="card stack" aria-labelledby="about-title">
            <h2 id="about-title">About this app</h2>
            <p className="prewrap">{app.description}</p>
          </section>

          {screenshots.length > 0 ? (
            <section className="card stack" aria-labelledby="screens-title">
              <h2 id="screens-title">Screenshots</h2>
              <ul className="gallery">
                {screenshots.map((url, i) => (
                  <li key={`${i}-${url}`}>
                    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                      <img src={url} alt={`Screenshot ${i + 1} of ${app.name}`} loading="lazy" />
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>

        <aside className="card stack" aria-labelledby="permissions-title">
          <h2 id="permissions-title">Permissions</h2>
          <p><strong>This app will be able to:</strong></p>
          {app.approvedScopes.length === 0 ? (
            <p className="muted">This app asks for no access to your shop data.</p>
          ) : (
            <ul className="permission-list">
              {app.approvedScopes.map((s) => (
                <li key={s}>{SCOPES[s as Scope] ?? s}</li>
              ))}
            </ul>
          )}
          <p className="muted small">You will be asked to confirm these permissions when you install the app.</p>
        </aside>
      </div>
    </main>
  );
}

