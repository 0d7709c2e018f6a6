import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { desc, eq } from "drizzle-orm";
import { apps } from "../../db/schema";
import { EmptyState } from "~/components/area-layout";

export const meta: MetaFunction = () => [{ title: "Marketplace · Storefront Apps" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const list = await context.db
    .select({ id: apps.id, name: apps.name, slug: apps.slug, description: apps.description, category: apps.category, iconUrl: apps.iconUrl })
    .from(apps)
    .where(eq(apps.status, "APPROVED"))
    .orderBy(desc(apps.publishedAt));
  return json({ apps: list });
}

export default function Marketplace() {
  const { apps } = useLoaderData<typeof loader>();
  return (
    <main className="page stack-lg">
      <header className="page-head">
        <h1>Marketplace</h1>
        <p className="lead">Apps reviewed by our team, ready to install on your shop.</p>
      </header>
      {apps.length === 0 ? (
        <EmptyState title="No apps published yet">Approved apps appear here.</EmptyState>
      ) : (
        <ul className="app-grid">
          {apps.map((a) => (
            <li key={a.id} className="card app-card">
              <strong>{a.name}</strong>
              <span className="badge">{a.category}</span>
              <p className="muted">{a.description}</p>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
