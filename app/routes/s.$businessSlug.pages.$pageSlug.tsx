import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { StorefrontBlocks, StorefrontErrorBoundary, sfMeta, shopPath } from "~/components/storefront-blocks";
import { loadBusinessBySlug, loadPage, pageContent } from "~/storefront.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => sfMeta(matches, data?.title ?? "Page not found");

export async function loader({ params, context }: LoaderFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  // the home page has one address
  if (params.pageSlug === "home") throw redirect(shopPath(business.slug));
  const page = await loadPage(context.db, business.id, params.pageSlug);
  const content = await pageContent(context.db, business, page.blocks);
  return json({ businessId: business.id, locale: business.locale, slug: business.slug, title: page.title, ...content });
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
