import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { StorefrontBlocks, StorefrontErrorBoundary, sfMeta } from "~/components/storefront-blocks";
import { pageContentOf, shopOf } from "~/storefront.server";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches);

export async function loader({ params, context }: LoaderFunctionArgs) {
  const shop = await shopOf(context, params.businessSlug);
  const { business } = shop;
  const { blocks, products } = await pageContentOf(context.db, shop, "home");
  return json({
    businessId: business.id,
    locale: business.locale,
    slug: business.slug,
    name: business.name,
    blocks,
    products,
  });
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
