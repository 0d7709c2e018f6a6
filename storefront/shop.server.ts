/**
 * The shop, read once per request (issue 17): the business with its content version, the
 * navigation, and the active app blocks and embeds, in one statement (`loadShop`), shared by every
 * loader of the request (`shopOf`).
 */
import type { Db } from "../db/client";
import { rawQuery } from "../db/sql";
import { businesses, type Business, type WidgetPlacement } from "../db/schema";
import type { BlockDef, EmbedDef } from "../app/platform/shapes/manifest";
import type { AvailableBlock, StorefrontEmbed } from "../app/platform/extensions/merchant.server";
import { placementOf } from "../app/platform/extensions/placement";
import { notFound, selectList } from "./site-helpers.server";

/** An app block as the storefront renders it (the registry's AvailableBlock). */
export type ShopBlock = AvailableBlock;
/** An embed of an active installation with the merchant's switch and settings. */
export type ShopEmbed = StorefrontEmbed;

export type Shop = {
  business: Business;
  /** bumped in the transaction of every change to what the storefront shows (migration 0018) */
  contentVersion: number;
  /** the published pages for the navigation, oldest first (home included) */
  nav: { slug: string; title: string }[];
  /** active block extensions of ACTIVE installations, in installation order */
  blocks: ShopBlock[];
  /** active embed extensions of ACTIVE installations, enabled or not */
  embeds: ShopEmbed[];
};

type ShopExtensionRow = {
  kind: "block" | "embed";
  definition: Record<string, unknown>;
  appId: string;
  appName: string;
  appSlug: string;
  appIconUrl: string | null;
  installationId: string;
  embedEnabled: boolean | null;
  embedSettings: Record<string, unknown> | null;
  embedPlacement: WidgetPlacement | null;
};

/**
 * Everything the storefront's layout and its pages read of a business, in one statement: the
 * business, its content version, the navigation, and the app blocks and embeds of its ACTIVE
 * installations (the registry's order: installation, then key) with the embeds' merchant settings.
 * (Statements are made on first use: a call at a module's top level would keep this module, and
 * what it imports, in the browser's bundle of the routes that import it.)
 */
let shopSql: string | undefined;
const SHOP_SQL = () =>
  (shopSql ??= `
  select ${selectList(businesses, "b")}, coalesce(v.version, 0) as "contentVersion",
    (select coalesce(json_agg(json_build_object('slug', n.slug, 'title', n.title) order by n.created_at, n.title, n.id), '[]'::json)
       from (select slug, title, created_at, id from pages where business_id = b.id and is_published order by created_at, title, id limit 20) n) as "nav",
    (select coalesce(json_agg(json_build_object('kind', e.kind, 'definition', e.definition, 'appId', a.id, 'appName', a.name, 'appSlug', a.slug, 'appIconUrl', a.icon_url,
                                                'installationId', i.id, 'embedEnabled', es.enabled, 'embedSettings', es.settings,
                                                'embedPlacement', es.placement)
                              order by i.installed_at, i.id, e.key), '[]'::json)
       from installations i
       join apps a on a.id = i.app_id
       join extensions e on e.app_id = a.id and e.is_active and e.kind in ('block', 'embed')
       left join embed_settings es on e.kind = 'embed' and es.installation_id = i.id and es.embed_type = e.key
       where i.business_id = b.id and i.status = 'ACTIVE') as "extensions"
  from businesses b
  left join storefront_versions v on v.business_id = b.id
  where b.slug = $1`);

/** The shop of a storefront URL, or null when no business has that slug. */
export async function loadShop(db: Db, slug: string | undefined): Promise<Shop | null> {
  if (!slug || slug.length > 100) return null;
  const [row] = await rawQuery<
    Record<string, unknown> & { contentVersion: number; nav: Shop["nav"]; extensions: ShopExtensionRow[] }
  >(db, SHOP_SQL(), [slug]);
  if (!row) return null;
  const { contentVersion, nav, extensions, ...business } = row;
  const blocks: ShopBlock[] = [];
  const embeds: ShopEmbed[] = [];
  for (const x of extensions) {
    if (x.kind === "block")
      blocks.push({
        ...(x.definition as unknown as BlockDef),
        appId: x.appId,
        appName: x.appName,
        installationId: x.installationId,
      });
    else {
      const def = x.definition as unknown as EmbedDef;
      embeds.push({
        ...def,
        appId: x.appId,
        appSlug: x.appSlug,
        appIconUrl: x.appIconUrl,
        installationId: x.installationId,
        enabled: x.embedEnabled ?? true,
        settings: x.embedSettings ?? def.defaultConfig ?? {},
        placement: placementOf(def, x.embedPlacement),
      });
    }
  }
  return { business: business as unknown as Business, contentVersion: Number(contentVersion), nav, blocks, embeds };
}

/** What Remix hands every loader of one request (web.server.ts, storefront-pages.server.ts). */
type LoadContext = { db: Db; storefrontShop?: Shop | null };
const shopsOfRequest = new WeakMap<object, Map<string, Promise<Shop | null>>>();

/**
 * The shop of the request's URL, read once per request: the layout and the page's loader run at the
 * same time and share one read; when the storefront's HTTP layer read it already (to answer a
 * conditional request), that read is used. A 404 Response when there is no such shop.
 */
export async function shopOf(context: LoadContext, slug: string | undefined): Promise<Shop> {
  let shop: Shop | null;
  if (context.storefrontShop && context.storefrontShop.business.slug === slug) shop = context.storefrontShop;
  else {
    let reads = shopsOfRequest.get(context);
    if (!reads) shopsOfRequest.set(context, (reads = new Map()));
    let read = reads.get(slug ?? "");
    if (!read) reads.set(slug ?? "", (read = loadShop(context.db, slug)));
    shop = await read;
  }
  if (!shop) throw notFound("We could not find this shop.");
  return shop;
}
