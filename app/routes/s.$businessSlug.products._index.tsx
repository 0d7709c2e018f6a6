import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  ProductCard,
  StorefrontErrorBoundary,
  catalogueNameOf,
  sfMeta,
  useCatalogueName,
} from "~/components/storefront-blocks";
import { activeProducts, groupByCategory, moneyFormatter, productView, shopOf } from "~/storefront.server";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches, catalogueNameOf(matches));

export async function loader({ params, context }: LoaderFunctionArgs) {
  const { business } = await shopOf(context, params.businessSlug);
  const money = moneyFormatter(business);
  const rows = await activeProducts(context.db, business.id);
  const groups = groupByCategory(rows.map((p) => productView(p, money)));
  return json({ slug: business.slug, groups });
}

const anchor = (i: number) => `category-${i + 1}`;

export default function Menu() {
  const { slug, groups } = useLoaderData<typeof loader>();
  const catalogue = useCatalogueName();
  return (
    <div className="sf-menu">
      <header className="sf-page-head">
        <h1>{catalogue}</h1>
        {groups.length > 1 ? (
          <nav aria-label="Categories" className="sf-chips">
            <ul>
              {groups.map((g, i) => (
                <li key={g.category}>
                  <a href={`#${anchor(i)}`} className="sf-chip">
                    {g.category}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </header>
      {groups.length === 0 ? <p className="sf-muted">There is nothing for sale yet. Please check back soon.</p> : null}
      {groups.map((g, i) => (
        <section key={g.category} className="sf-category" aria-labelledby={anchor(i)}>
          <h2 id={anchor(i)} className="sf-category-title" tabIndex={-1}>
            {g.category}
          </h2>
          <ul className="sf-grid">
            {g.items.map((p) => (
              <li key={p.id}>
                <ProductCard product={p} slug={slug} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
