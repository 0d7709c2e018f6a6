/**
 * The words a shop's storefront starts with, by the kind of shop the merchant chose (decision 061):
 * a shop speaks of products unless it is a restaurant, which speaks of its menu. No server code: the
 * storefront's pages and the admin's settings page use it in the browser too.
 */
export type ShopKind = "RETAIL" | "RESTAURANT";

export const SHOP_KINDS: { value: ShopKind; label: string }[] = [
  { value: "RETAIL", label: "Shop: a catalogue of products" },
  { value: "RESTAURANT", label: "Restaurant or café: a menu" },
];

export type ShopWords = {
  /** the catalogue's title and the breadcrumb's first link: "Products" or "Menu" */
  catalogue: string;
  /** the default home page's line under its heading */
  welcome: string;
};

const WORDS: Record<ShopKind, ShopWords> = {
  RETAIL: {
    catalogue: "Products",
    welcome: "Browse our products and order for delivery or pickup.",
  },
  RESTAURANT: {
    catalogue: "Menu",
    welcome: "Fresh food, made to order. Browse the menu and order for pickup or delivery.",
  },
};

/** The words of a kind of shop; anything unknown speaks as a shop. */
export const shopWords = (kind: string | null | undefined): ShopWords =>
  WORDS[kind === "RESTAURANT" ? "RESTAURANT" : "RETAIL"];

/** The shop's `<meta name="description">`: its own, or one made from its name (decision 061). */
export function shopDescription(business: { name: string; type: string; metaDescription: string }): string {
  const own = business.metaDescription.trim();
  if (own) return own;
  return business.type === "RESTAURANT"
    ? `Order from ${business.name}: see the menu and order for pickup or delivery.`
    : `Shop ${business.name} online: browse the products and order for delivery or pickup.`;
}
