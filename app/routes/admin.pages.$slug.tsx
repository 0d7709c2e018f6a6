import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useStorefrontUrl } from "~/components/origins";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useMemo, useState } from "react";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { getPage } from "~/platform/catalog/queries.server";
import { adminSessionToken, availableBlocks, savePage } from "~/platform/extensions/merchant.server";
import { ApiError, readForm } from "~/platform/core/http.server";
import { getAppForReview } from "~/platform/apps/review.server";
import { BUILTIN_BLOCK_TYPES } from "~/platform/extensions/builtin-blocks";
import { BlockFrame } from "~/components/block-frame";
import { SettingsForm } from "~/components/settings-form";
import { CsrfInput } from "~/components/csrf";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.page.title ?? "Page"} · Site builder` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { account, business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const page = await getPage(context.db, business.id, params.slug!).catch((e) => {
    if (e instanceof ApiError) throw new Response("Page not found", { status: 404 });
    throw e;
  });
  const blocks = await availableBlocks(context.db, business.id);
  const tokens: Record<string, string> = {};
  for (const appId of new Set(blocks.map((b) => b.appId))) {
    const app = await getAppForReview(context.db, appId);
    const token = await adminSessionToken(context.env, app, account.id, business.id);
    if (token) tokens[appId] = token;
  }
  return json({
    business: { id: business.id, slug: business.slug, locale: business.locale },
    page: { slug: page.slug, title: page.title, isPublished: page.isPublished, blocks: page.blocks },
    available: blocks.map((b) => ({ appId: b.appId, appName: b.appName, blockType: b.blockType, name: b.name, description: b.description ?? "", category: b.category || "Apps", iconName: b.iconName ?? "", renderUrl: b.renderUrl, settingsSchema: b.settingsSchema ?? null, defaultConfig: b.defaultConfig ?? {} })),
    tokens,
    // the apps' block iframes and their JSON-Schema settings forms (page-csp.server.ts)
    cspFrameOrigins: blocks.map((b) => b.renderUrl),
    cspEval: true,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  let body: unknown;
  try {
    body = JSON.parse(String(form.get("page") ?? ""));
  } catch {
    return json({ error: "The page could not be read; reload and try again." }, 400);
  }
  try {
    await savePage(context.db, business.id, params.slug!, body);
  } catch (e) {
    if (e instanceof ApiError) return json({ error: e.message }, e.status);
    throw e;
  }
  return redirect(`/admin/pages/${params.slug}?saved=1`);
}

type Block = { id: string; kind: "builtin" | "app"; type: string; appId?: string; settings: Record<string, unknown> };

let counter = 0;
const tempId = () => `new${Date.now().toString(36)}${(counter++).toString(36)}`;

export default function PageEditor() {
  const { business, page, available, tokens } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const [title, setTitle] = useState(page.title);
  const [isPublished, setPublished] = useState(page.isPublished);
  const [blocks, setBlocks] = useState<Block[]>(page.blocks as Block[]);
  const [selected, setSelected] = useState<string | null>(page.blocks[0]?.id ?? null);
  const current = blocks.find((b) => b.id === selected) ?? null;

  const defOf = (b: Block) => (b.kind === "app" ? available.find((a) => a.appId === b.appId && a.blockType === b.type) : null);
  const builtinOf = (b: Block) => BUILTIN_BLOCK_TYPES.find((x) => x.type === b.type);
  const groups = useMemo(() => {
    const map = new Map<string, typeof available>();
    for (const a of available) map.set(a.category, [...(map.get(a.category) ?? []), a]);
    return [...map.entries()];
  }, [available]);

  const add = (block: Block) => {
    setBlocks((bs) => [...bs, block]);
    setSelected(block.id);
  };
  const move = (id: string, by: number) =>
    setBlocks((bs) => {
      const i = bs.findIndex((b) => b.id === id);
      const j = i + by;
      if (i < 0 || j < 0 || j >= bs.length) return bs;
      const copy = [...bs];
      [copy[i], copy[j]] = [copy[j], copy[i]];
      return copy;
    });
  const remove = (id: string) => {
    setBlocks((bs) => bs.filter((b) => b.id !== id));
    if (selected === id) setSelected(null);
  };
  const updateSettings = (id: string, settings: Record<string, unknown>) => setBlocks((bs) => bs.map((b) => (b.id === id ? { ...b, settings } : b)));

  const payload = JSON.stringify({ title, isPublished, blocks: blocks.map((b) => ({ ...(b.id.startsWith("new") ? {} : { id: b.id }), kind: b.kind, type: b.type, ...(b.appId ? { appId: b.appId } : {}), settings: b.settings })) });
  const storefront = useStorefrontUrl();
  const address = page.slug === "home" ? `/s/${business.slug}` : `/s/${business.slug}/pages/${page.slug}`;

  return (
    <div className="stack-lg">
      <header className="section-title">
        <div>
          <p><Link to="/admin/pages">← Site pages</Link></p>
          <h1>{title}</h1>
          <p className="muted">Live at <a href={storefront(address)} target="_blank" rel="noreferrer">{storefront(address)}</a> {isPublished ? <span className="badge ok">published</span> : <span className="badge">draft</span>}</p>
        </div>
        <Form method="post" className="row">
          <CsrfInput />
          <input type="hidden" name="page" value={payload} />
          <label className="toggle">
            <input type="checkbox" role="switch" checked={isPublished} onChange={(e) => setPublished(e.target.checked)} />
            <span className="toggle-track" aria-hidden />
            <span>Published</span>
          </label>
          <button type="submit" className="button primary" disabled={busy}>{busy ? "Saving…" : "Save page"}</button>
        </Form>
      </header>
      {params.get("saved") && !result ? <p className="alert success" role="status">Page saved.</p> : null}
      {result?.error ? <p className="alert error" role="alert">{result.error}</p> : null}
      <div className="builder-grid">
        <div className="canvas stack" aria-label="Page blocks">
          <label>Page title <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={120} /></label>
          {blocks.length === 0 ? <p className="empty">This page has no blocks yet. Add one from the panel.</p> : null}
          {blocks.map((b, i) => {
            const def = defOf(b);
            const builtin = builtinOf(b);
            return (
              <div key={b.id} className={`builder-block${b.id === selected ? " selected" : ""}`} data-testid="builder-block">
                <div className="builder-block-bar">
                  <button type="button" className="button-link" onClick={() => setSelected(b.id)}>
                    {def ? `${def.name} · ${def.appName}` : builtin ? builtin.name : `${b.type} (unavailable)`}
                  </button>
                  <span className="row compact">
                    <button type="button" className="button small" onClick={() => move(b.id, -1)} disabled={i === 0} aria-label="Move up">↑</button>
                    <button type="button" className="button small" onClick={() => move(b.id, 1)} disabled={i === blocks.length - 1} aria-label="Move down">↓</button>
                    <button type="button" className="button small" onClick={() => remove(b.id)} aria-label={`Remove ${def?.name ?? builtin?.name ?? b.type}`}>Remove</button>
                  </span>
                </div>
                {def ? (
                  <BlockFrame blockId={b.id} renderUrl={def.renderUrl} settings={b.settings} businessId={business.id} locale={business.locale} mode="editor" sessionToken={tokens[def.appId] ?? null} title={def.name} />
                ) : b.type === "heading" ? (
                  <h2>{String(b.settings.text ?? "")}</h2>
                ) : b.type === "text" ? (
                  <p>{String(b.settings.text ?? "")}</p>
                ) : b.type === "image" ? (
                  <p className="muted">Image: {String(b.settings.url ?? "")}</p>
                ) : b.type === "product-grid" ? (
                  <p className="muted">Product grid: your {String(b.settings.limit ?? 8)} newest products</p>
                ) : (
                  <p className="muted">This app block is not available (the app was uninstalled or removed it). It stays on the page and comes back with the app.</p>
                )}
              </div>
            );
          })}
        </div>
        <aside className="panel stack">
          <section>
            <h2>Block settings</h2>
            {current ? (
              (() => {
                const def = defOf(current);
                const builtin = builtinOf(current);
                const schema = def ? def.settingsSchema : builtin ? builtin.schema : null;
                return schema ? (
                  <SettingsForm key={current.id} schema={schema as Record<string, unknown>} value={current.settings} onChange={(v) => updateSettings(current.id, v)} idPrefix={`block-${current.id}`} />
                ) : (
                  <p className="muted">This block has no settings.</p>
                );
              })()
            ) : (
              <p className="muted">Select a block to edit its settings.</p>
            )}
          </section>
          <section>
            <h2>Add a block</h2>
            <h3 className="small muted">Built-in</h3>
            <ul className="picker">
              {BUILTIN_BLOCK_TYPES.map((t) => (
                <li key={t.type}>
                  <button type="button" className="picker-item" onClick={() => add({ id: tempId(), kind: "builtin", type: t.type, settings: { ...t.defaults } })}>
                    <span className="picker-icon" aria-hidden>{t.icon}</span>
                    <span><strong>{t.name}</strong><span className="muted small">{t.description}</span></span>
                  </button>
                </li>
              ))}
            </ul>
            {groups.map(([category, items]) => (
              <div key={category}>
                <h3 className="small muted">{category}</h3>
                <ul className="picker">
                  {items.map((a) => (
                    <li key={`${a.appId}:${a.blockType}`}>
                      <button type="button" className="picker-item" onClick={() => add({ id: tempId(), kind: "app", type: a.blockType, appId: a.appId, settings: { ...(a.defaultConfig as Record<string, unknown>) } })}>
                        <span className="picker-icon" aria-hidden>{a.iconName ? a.iconName.slice(0, 1).toUpperCase() : "◆"}</span>
                        <span><strong>{a.name}</strong><span className="muted small">{a.description || `from ${a.appName}`}</span></span>
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
            {available.length === 0 ? <p className="muted small">Install apps from the <Link to="/marketplace">marketplace</Link> to get more blocks.</p> : null}
          </section>
        </aside>
      </div>
    </div>
  );
}
