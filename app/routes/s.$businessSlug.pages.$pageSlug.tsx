import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { StorefrontBlocks, StorefrontErrorBoundary, sfMeta, shopPath } from "~/components/storefront-blocks";
import { pageContentOf, shopOf } from "~/storefront.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  sfMeta(matches, data?.title ?? "Page not found");

export async function loader({ params, context }: LoaderFunctionArgs) {
  const shop = await shopOf(context, params.businessSlug);
  const { business } = shop;
  // the home page has one address
  if (params.pageSlug === "home") throw redirect(shopPath(business.slug));
  const { title, blocks, products } = await pageContentOf(context.db, shop, params.pageSlug);
  return json({ businessId: business.id, locale: business.locale, slug: business.slug, title, blocks, products });
}

export default function StorefrontPage() {
  const { businessId, locale, slug, title, blocks, products } = useLoaderData<typeof loader>();
  return (
    <article className="sf-page">
      <h1>{title}</h1>
      <StorefrontBlocks blocks={blocks} products={products} slug={slug} businessId={businessId} locale={locale} />
    </article>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
