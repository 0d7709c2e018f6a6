/**
 * The site builder's live preview (docs/decisions/017-live-preview.md), on the storefront's origin:
 * the page as shoppers will see it (the shop's header and footer, its styles, built-in blocks, app
 * blocks in their iframes with `mode: "editor"`), drawn from the builder's unsaved draft.
 *
 * - Opened only with a preview token (`?token=`, 5 minutes, bound to this business and page): 401
 *   without a valid one, 403 for another business's or page's.
 * - Framed only by the platform's origin (`frame-ancestors` = PUBLIC_URL), never cached, no embed's
 *   script (entry.server.tsx): the app session tokens of the page's blocks live in this window.
 * - The draft arrives by postMessage from the builder (`PREVIEW_DRAFT`), accepted only from the
 *   parent window on the platform's origin; the preview answers `PREVIEW_READY` and, when the
 *   merchant clicks a block, `PREVIEW_SELECT` to that origin only. Links and forms do nothing here.
 */
import { may, memberOf } from "~/platform/accounts/permissions";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import sf from "~/storefront.css";
import previewStyles from "~/storefront-preview.css";
import { CatalogueName, LinkDiscovery, StorefrontBlock } from "~/components/storefront-blocks";
import { StorefrontFooter, StorefrontHeader } from "~/components/storefront-chrome";
import { originOf } from "~/components/block-frame";
import { BUILTIN_BLOCK_TYPES } from "~/platform/extensions/builtin-blocks";
import { publicBlock, type BlockDefinition, type PublicBlock } from "../../storefront/blocks";
import {
  gridProducts,
  loadBusinessBySlug,
  moneyFormatter,
  productView,
  publicBusiness,
  publishedPages,
} from "~/storefront.server";
import { getPage } from "~/platform/catalog/queries.server";
import { adminSessionToken, availableBlocks } from "~/platform/extensions/merchant.server";
import { getAppForReview } from "~/platform/apps/review.server";
import { previewAccount, verifyPreviewToken } from "~/platform/extensions/preview.server";
import { orNotFound } from "~/platform/accounts/guards.server";
import type { PageBlock } from "../../db/schema/catalog";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: sf },
  { rel: "stylesheet", href: previewStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Preview: ${data.page.title} · ${data.business.name}` : "Preview" },
];

const NO_STORE = { "Cache-Control": "no-store" };
/** A product grid shows at most 48 products; the preview holds that many so that any limit the draft sets shows at once. */
const MAX_GRID = 48;
const MAX_DRAFT_BLOCKS = 200;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { db, env } = context;
  const business = await loadBusinessBySlug(db, params.businessSlug);
  const pageSlug = params.pageSlug ?? "";
  const check = await verifyPreviewToken(env, new URL(request.url).searchParams.get("token"), {
    businessId: business.id,
    pageSlug,
  });
  if (!check.ok) throw new Response(check.message, { status: check.status, headers: NO_STORE });
  const account = await previewAccount(db, business.id, check.accountId);
  const member = account && !account.closedAt ? memberOf(account) : null;
  // the builder is the `pages` permission (contract 17): a member who lost it loses the preview at once
  if (!account || !member || !may(member, "pages"))
    throw new Response("This preview link is no longer valid. Open the page in the site builder again.", {
      status: 401,
      headers: NO_STORE,
    });
  const page = await getPage(db, business.id, pageSlug).catch(
    orNotFound("This page does not exist (any more).", NO_STORE),
  );
  const [navPages, blocks, products] = await Promise.all([
    publishedPages(db, business.id),
    availableBlocks(db, business.id),
    gridProducts(db, business.id, MAX_GRID),
  ]);
  // in the editor a block receives a session token proving which merchant is editing (contract 10)
  const sessionTokens: Record<string, string> = {};
  for (const appId of new Set(blocks.map((b) => b.appId))) {
    const token = await adminSessionToken(
      env,
      await getAppForReview(db, appId),
      { accountId: account.id, name: account.name, owner: member.owner, permissions: member.permissions },
      business.id,
    );
    if (token) sessionTokens[appId] = token;
  }
  const money = moneyFormatter(business);
  const definitions: BlockDefinition[] = blocks.map((b) => ({
    appId: b.appId,
    blockType: b.blockType,
    name: b.name,
    renderUrl: b.renderUrl,
  }));
  return json(
    {
      business: publicBusiness(business),
      pages: navPages.filter((p) => p.slug !== "home"),
      page: { slug: page.slug, title: page.title, blocks: page.blocks },
      products: products.map((p) => productView(p, money)),
      definitions,
      sessionTokens,
      platformOrigin: new URL(env.publicUrl).origin,
      // read by entry.server: the frames of the app blocks (no embed's script runs here)
      csp: { frameOrigins: definitions.map((d) => originOf(d.renderUrl)).filter((o): o is string => !!o) },
    },
    { headers: NO_STORE },
  );
}

type Draft = { title: string; blocks: PageBlock[] };

/** A draft from the builder, taken apart field by field: anything malformed is dropped. */
function readDraft(message: Record<string, unknown>): Draft | null {
  if (typeof message.title !== "string" || !Array.isArray(message.blocks)) return null;
  const blocks: PageBlock[] = [];
  for (const b of message.blocks.slice(0, MAX_DRAFT_BLOCKS)) {
    if (!b || typeof b !== "object") continue;
    const { id, kind, type, appId, settings } = b as Record<string, unknown>;
    if (
      typeof id !== "string" ||
      id.length > 100 ||
      (kind !== "builtin" && kind !== "app") ||
      typeof type !== "string" ||
      type.length > 100
    )
      continue;
    if (appId !== undefined && typeof appId !== "string") continue;
    const s =
      settings && typeof settings === "object" && !Array.isArray(settings) ? (settings as Record<string, unknown>) : {};
    blocks.push({ id, kind, type, ...(typeof appId === "string" ? { appId } : {}), settings: s });
  }
  return { title: message.title.slice(0, 200), blocks };
}

const builtinName = (type: string) => BUILTIN_BLOCK_TYPES.find((t) => t.type === type)?.name;

/** What the merchant sees where a block shows nothing to shoppers (so that it can still be found and selected). */
function placeholder(block: PageBlock, shown: PublicBlock | null): string | null {
  if (block.kind === "app")
    return shown
      ? null
      : "This app block is not available (the app was uninstalled or removed it). Shoppers do not see it.";
  if (!shown)
    return block.type === "image"
      ? "Image: add an http(s) address to show a picture."
      : `Unknown block "${block.type}": shoppers do not see it.`;
  if (shown.kind === "builtin" && (shown.type === "heading" || shown.type === "text") && !shown.text)
    return `Empty ${shown.type}: shoppers see nothing here.`;
  return null;
}

export default function StorefrontPreview() {
  const data = useLoaderData<typeof loader>();
  const { business, products, definitions, sessionTokens, platformOrigin } = data;
  const [draft, setDraft] = useState<Draft>({ title: data.page.title, blocks: data.page.blocks as PageBlock[] });
  const [selected, setSelected] = useState<string | null>(null);
  // a selection made in the builder scrolls the block into view; one made here does not
  const scrollTo = useRef<string | null>(null);

  useEffect(() => {
    if (window.parent === window) return;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== platformOrigin) return;
      const message = event.data as Record<string, unknown> | null;
      if (!message || typeof message !== "object" || message.type !== "PREVIEW_DRAFT") return;
      const next = readDraft(message);
      if (!next) return;
      setDraft(next);
      const pick = typeof message.selected === "string" ? message.selected : null;
      setSelected((before) => {
        if (pick && pick !== before) scrollTo.current = pick;
        return pick;
      });
    };
    window.addEventListener("message", onMessage);
    window.parent.postMessage({ type: "PREVIEW_READY" }, platformOrigin);
    return () => window.removeEventListener("message", onMessage);
  }, [platformOrigin]);

  // nothing in the preview navigates or submits: a click selects a block (the handles below)
  useEffect(() => {
    const stop = (event: Event) => {
      const target = event.target as Element | null;
      if (event.type === "submit" || target?.closest?.("a[href], button[type=submit], input[type=submit]"))
        event.preventDefault();
    };
    window.addEventListener("click", stop, true);
    window.addEventListener("submit", stop, true);
    return () => {
      window.removeEventListener("click", stop, true);
      window.removeEventListener("submit", stop, true);
    };
  }, []);

  // Ctrl/Cmd+Z while the preview has the focus undoes in the builder (outside the preview's own fields)
  useEffect(() => {
    if (window.parent === window) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== "z") return;
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
      e.preventDefault();
      window.parent.postMessage({ type: "PREVIEW_UNDO" }, platformOrigin);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [platformOrigin]);

  useEffect(() => {
    const id = scrollTo.current;
    if (!id) return;
    scrollTo.current = null;
    // scrolls this window only (scrollIntoView would scroll the builder's page too, to bring the frame into view)
    const el = document.querySelector(`[data-preview-block="${CSS.escape(id)}"]`);
    if (!el) return;
    const box = el.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    window.scrollTo({ top: Math.max(0, window.scrollY + box.top - 24), behavior: "smooth" });
  }, [selected]);

  const select = (id: string) => {
    setSelected(id);
    if (window.parent !== window) window.parent.postMessage({ type: "PREVIEW_SELECT", blockId: id }, platformOrigin);
  };

  const home = data.page.slug === "home";
  const blocks = (
    <div className="sf-blocks">
      {draft.blocks.length === 0 ? (
        <p className="sf-muted sfp-empty">This page has no blocks yet. Add one in the site builder.</p>
      ) : null}
      {draft.blocks.map((block) => {
        const shown = publicBlock(block, definitions);
        const note = placeholder(block, shown);
        const label =
          block.kind === "app"
            ? shown?.kind === "app"
              ? shown.name
              : "App block"
            : (builtinName(block.type) ?? block.type);
        const isSelected = block.id === selected;
        return (
          <div key={block.id} className={`sfp-block${isSelected ? " is-selected" : ""}`} data-preview-block={block.id}>
            {note ? (
              <p className="sfp-placeholder">{note}</p>
            ) : shown ? (
              <StorefrontBlock
                block={shown}
                products={products}
                slug={business.slug}
                businessId={business.id}
                locale={business.locale}
                mode="editor"
                sessionToken={shown.kind === "app" ? (sessionTokens[shown.appId] ?? null) : null}
              />
            ) : null}
            {/* over the whole block, iframes included: a click anywhere on it selects it */}
            <button
              type="button"
              className="sfp-handle"
              aria-label={`Select block: ${label}`}
              aria-pressed={isSelected}
              onClick={() => select(block.id)}
            >
              <span className="sfp-tag">{label}</span>
            </button>
          </div>
        );
      })}
    </div>
  );

  return (
    <LinkDiscovery.Provider value="none">
      <CatalogueName.Provider value={business.catalogue}>
        <div className="sf sfp" lang={business.locale}>
          <StorefrontHeader business={business} pages={data.pages} cartCount={0} />
          <main className="sf-container sf-main">
            {home ? (
              <>
                <h1 className="sf-visually-hidden">{business.name}</h1>
                {blocks}
              </>
            ) : (
              <article className="sf-page">
                <h1>{draft.title}</h1>
                {blocks}
              </article>
            )}
          </main>
          <StorefrontFooter business={business} />
        </div>
      </CatalogueName.Provider>
    </LinkDiscovery.Provider>
  );
}

/** No token, an expired one, another business's: said inside the builder's frame, in the shop's style. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data.length < 300
      ? error.data
      : "Something went wrong while drawing the preview. Reload it from the site builder.";
  return (
    <div className="sf">
      <main className="sf-container sf-main">
        <section className="sf-error" data-preview-error={status}>
          <h1>
            {status === 401
              ? "Preview expired"
              : status === 403
                ? "Not allowed"
                : status === 404
                  ? "Page not found"
                  : "Preview unavailable"}
          </h1>
          <p>{message}</p>
        </section>
      </main>
    </div>
  );
}
