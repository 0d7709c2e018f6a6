import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { StorefrontBlocks, StorefrontErrorBoundary, sfMeta } from "~/components/storefront-blocks";
import { loadBusinessBySlug, loadHomePage, pageContent } from "~/storefront.server";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches);

export async function loader({ params, context }: LoaderFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  const page = await loadHomePage(context.db, business);
  const content = await pageContent(context.db, business, page.blocks);
  return json({ businessId: business.id, locale: business.locale, slug: business.slug, name: business.name, ...content });
}

export default function StorefrontHome() {
  const { businessId, locale, slug, name, blocks, products } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="sf-visually-hidden">{name}</h1>
      <StorefrontBlocks blocks={blocks} products={products} slug={slug} businessId={businessId} locale={locale} />
    </>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
