/**
 * The site builder: the page's blocks (select, drag to reorder, ↑/↓, remove, add), the selected
 * block's settings under it, and beside them the live preview, the page as the storefront renders
 * it, drawn from the unsaved draft (docs/decisions/017-live-preview.md).
 *
 * The preview is a page of the storefront's origin (STOREFRONT_URL, where apps' code runs and the
 * platform's session never goes), opened with a short-lived preview token. The builder posts the
 * draft to it (`PREVIEW_DRAFT`, targetOrigin = the storefront's origin) whenever it changes and when
 * the preview says `PREVIEW_READY`; the preview says `PREVIEW_SELECT` when the merchant clicks a
 * block and `PREVIEW_UNDO` on Ctrl/Cmd+Z. Messages are accepted only from the preview iframe's
 * window on the storefront's origin, and can do no more than select a block or undo.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useBlocker,
  useLoaderData,
  useNavigation,
  useRevalidator,
  useSearchParams,
} from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { useStorefrontUrl } from "~/components/origins";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { getPage } from "~/platform/catalog/queries.server";
import { availableBlocks, savePage } from "~/platform/extensions/merchant.server";
import { previewUrl } from "~/platform/extensions/preview.server";
import { BUILTIN_BLOCK_TYPES } from "~/platform/extensions/builtin-blocks";
import { SettingsForm } from "~/components/settings-form";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.title ?? "Page"} · Site builder` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { account, business } = await requireMerchant(request, context);
  const page = await getPage(context.db, business.id, params.slug!).catch(orNotFound("Page not found"));
  const blocks = await availableBlocks(context.db, business.id);
  return json({
    business: { id: business.id, slug: business.slug, locale: business.locale },
    page: {
      slug: page.slug,
      title: page.title,
      isPublished: page.isPublished,
      blocks: page.blocks,
      version: page.updatedAt.toISOString(),
    },
    available: blocks.map((b) => ({
      appId: b.appId,
      appName: b.appName,
      blockType: b.blockType,
      name: b.name,
      description: b.description ?? "",
      category: b.category || "Apps",
      iconName: b.iconName ?? "",
      settingsSchema: b.settingsSchema ?? null,
      defaultConfig: b.defaultConfig ?? {},
    })),
    // the live preview on the storefront's origin, opened with a fresh 5-minute preview token
    preview: {
      url: await previewUrl(context.env, business, page.slug, account.id),
      origin: new URL(context.env.storefrontUrl).origin,
    },
    // the preview's frame, and the JSON-Schema settings forms (page-csp.server.ts)
    cspFrameOrigins: [context.env.storefrontUrl],
    cspEval: true,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context);
  return formAction(request, context, async (form) => {
    let body: unknown;
    try {
      body = JSON.parse(String(form.get("page") ?? ""));
    } catch {
      return json({ error: "The page could not be read; reload and try again." }, 400);
    }
    await savePage(context.db, business.id, params.slug!, body);
    return redirect(`/admin/pages/${params.slug}?saved=1`);
  });
}

type Block = { id: string; kind: "builtin" | "app"; type: string; appId?: string; settings: Record<string, unknown> };
type Draft = { title: string; isPublished: boolean; blocks: Block[] };
type LoaderData = SerializeFrom<typeof loader>;
type Available = LoaderData["available"][number];

let counter = 0;
const tempId = () => `new${Date.now().toString(36)}${(counter++).toString(36)}`;

// ---- the draft and its history (undo) ----

type History = { draft: Draft; past: Draft[]; lastKey: string | null; lastAt: number };
type Change = { type: "change"; update: (d: Draft) => Draft; key?: string; at: number } | { type: "undo" };
/** Typing in one field is one change while it goes on (less than 1.5 s between edits), not one per letter. */
const COALESCE_MS = 1500;
const MAX_UNDO = 100;

function historyReducer(state: History, action: Change): History {
  if (action.type === "undo") {
    if (state.past.length === 0) return state;
    return { draft: state.past[state.past.length - 1], past: state.past.slice(0, -1), lastKey: null, lastAt: 0 };
  }
  const next = action.update(state.draft);
  if (next === state.draft) return state;
  if (action.key && action.key === state.lastKey && action.at - state.lastAt < COALESCE_MS)
    return { ...state, draft: next, lastAt: action.at };
  return {
    draft: next,
    past: [...state.past, state.draft].slice(-MAX_UNDO),
    lastKey: action.key ?? null,
    lastAt: action.at,
  };
}

function moveBlock(blocks: Block[], id: string, to: number): Block[] {
  const from = blocks.findIndex((b) => b.id === id);
  if (from < 0) return blocks;
  const target = Math.max(0, Math.min(blocks.length - 1, to));
  if (target === from) return blocks;
  const copy = [...blocks];
  const [moved] = copy.splice(from, 1);
  copy.splice(target, 0, moved);
  return copy;
}

const isEditable = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

// ---- the page ----

export default function PageEditorRoute() {
  const data = useLoaderData<typeof loader>();
  // after a save the builder starts again from the saved page (the server gave new blocks their ids)
  const selectedIndex = useRef<number | null>(0);
  return <PageEditor key={data.page.version} data={data} selectedIndex={selectedIndex} />;
}

function PageEditor({
  data,
  selectedIndex,
}: {
  data: LoaderData;
  selectedIndex: React.MutableRefObject<number | null>;
}) {
  const { business, page, available, preview } = data;
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" || (navigation.state === "loading" && navigation.formMethod != null);
  const storefront = useStorefrontUrl();

  const saved = useMemo<Draft>(
    () => ({ title: page.title, isPublished: page.isPublished, blocks: page.blocks as Block[] }),
    [page],
  );
  const [history, dispatch] = useReducer(historyReducer, { draft: saved, past: [], lastKey: null, lastAt: 0 });
  const { draft } = history;
  const change = useCallback(
    (update: (d: Draft) => Draft, key?: string) => dispatch({ type: "change", update, key, at: Date.now() }),
    [],
  );
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(saved), [draft, saved]);

  const [selected, setSelected] = useState<string | null>(
    () => saved.blocks[selectedIndex.current ?? -1]?.id ?? saved.blocks[0]?.id ?? null,
  );
  useEffect(() => {
    const i = draft.blocks.findIndex((b) => b.id === selected);
    selectedIndex.current = i >= 0 ? i : null;
    // an undone addition takes its selection with it
    if (selected && i < 0) setSelected(null);
  }, [draft.blocks, selected, selectedIndex]);

  const defOf = (b: Block) =>
    b.kind === "app" ? available.find((a) => a.appId === b.appId && a.blockType === b.type) : undefined;
  const builtinOf = (b: Block) =>
    b.kind === "builtin" ? BUILTIN_BLOCK_TYPES.find((x) => x.type === b.type) : undefined;
  const nameOf = (b: Block) => defOf(b)?.name ?? builtinOf(b)?.name ?? `${b.type} (unavailable)`;

  const add = (block: Block) => {
    // after the selected block, else at the end
    change((d) => {
      const at = d.blocks.findIndex((b) => b.id === selected);
      const blocks = [...d.blocks];
      blocks.splice(at < 0 ? blocks.length : at + 1, 0, block);
      return { ...d, blocks };
    });
    setSelected(block.id);
  };
  const addApp = (a: Available) =>
    add({
      id: tempId(),
      kind: "app",
      type: a.blockType,
      appId: a.appId,
      settings: { ...(a.defaultConfig as Record<string, unknown>) },
    });
  const move = (id: string, to: number) => change((d) => ({ ...d, blocks: moveBlock(d.blocks, id, to) }));
  const remove = (id: string) => change((d) => ({ ...d, blocks: d.blocks.filter((b) => b.id !== id) }));
  const updateSettings = (id: string, settings: Record<string, unknown>) =>
    change((d) => {
      const before = d.blocks.find((b) => b.id === id);
      if (!before || JSON.stringify(before.settings) === JSON.stringify(settings)) return d;
      return { ...d, blocks: d.blocks.map((b) => (b.id === id ? { ...b, settings } : b)) };
    }, `settings:${id}`);

  // ---- undo from the keyboard, outside text fields (where the field's own undo applies) ----
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== "z" || isEditable(e.target))
        return;
      e.preventDefault();
      undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo]);

  // ---- leaving with unsaved changes: another page of the admin (useBlocker), or the browser (beforeunload) ----
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  // once the merchant chose to leave, a navigation that becomes a document load asks no second time
  const leaving = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (leaving.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  // ---- the live preview ----
  const frame = useRef<HTMLIFrameElement>(null);
  const [mounted, setMounted] = useState(false);
  const [device, setDevice] = useState<PreviewDevice>("desktop");
  useEffect(() => {
    setMounted(true);
    // on a narrow screen a desktop-wide preview would be too small to read
    if (window.innerWidth < 700) setDevice("phone");
  }, []);
  const [previewState, setPreviewState] = useState<"loading" | "ready" | "failed">("loading");
  const [frameKey, setFrameKey] = useState(0);
  const revalidator = useRevalidator();
  const listRef = useRef<HTMLOListElement>(null);
  const latest = useRef({ draft, selected });
  latest.current = { draft, selected };

  const postDraft = useCallback(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const { draft: d, selected: s } = latest.current;
    target.postMessage({ type: "PREVIEW_DRAFT", title: d.title, blocks: d.blocks, selected: s }, preview.origin);
  }, [preview.origin]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== preview.origin) return;
      const message = event.data as { type?: unknown; blockId?: unknown } | null;
      if (!message || typeof message !== "object") return;
      if (message.type === "PREVIEW_READY") {
        setPreviewState("ready");
        postDraft();
      } else if (message.type === "PREVIEW_UNDO") {
        undo();
      } else if (message.type === "PREVIEW_SELECT" && typeof message.blockId === "string") {
        const id = message.blockId;
        if (!latest.current.draft.blocks.some((b) => b.id === id)) return;
        setSelected(id);
        requestAnimationFrame(() =>
          listRef.current?.querySelector(`[data-block-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest" }),
        );
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [preview.origin, postDraft, undo]);

  useEffect(() => {
    if (previewState === "ready") postDraft();
  }, [draft, selected, previewState, postDraft]);

  // a preview that never says READY (its token expired, the network failed): say so, offer a reload
  useEffect(() => {
    if (previewState !== "loading" || !mounted) return;
    const timer = setTimeout(() => setPreviewState((s) => (s === "loading" ? "failed" : s)), 15_000);
    return () => clearTimeout(timer);
  }, [previewState, mounted, frameKey, preview.url]);
  useEffect(() => setPreviewState("loading"), [preview.url]);
  const reloadPreview = () => {
    setPreviewState("loading");
    // a fresh token comes with the builder's data
    revalidator.revalidate();
    setFrameKey((k) => k + 1);
  };

  // ---- drag and drop in the list (HTML5) ----
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ id: string; after: boolean } | null>(null);
  const onDrop = (targetId: string, after: boolean) => {
    const id = dragging;
    setDragging(null);
    setDropAt(null);
    if (!id || id === targetId) return;
    change((d) => {
      const without = d.blocks.filter((b) => b.id !== id);
      const at = without.findIndex((b) => b.id === targetId);
      const moved = d.blocks.find((b) => b.id === id);
      if (at < 0 || !moved) return d;
      const blocks = [...without];
      blocks.splice(after ? at + 1 : at, 0, moved);
      return blocks.every((b, i) => b.id === d.blocks[i].id) ? d : { ...d, blocks };
    });
  };

  const groups = useMemo(() => {
    const map = new Map<string, Available[]>();
    for (const a of available) map.set(a.category, [...(map.get(a.category) ?? []), a]);
    return [...map.entries()];
  }, [available]);
  const [picking, setPicking] = useState(false);

  const payload = JSON.stringify({
    title: draft.title,
    isPublished: draft.isPublished,
    blocks: draft.blocks.map((b) => ({
      ...(b.id.startsWith("new") ? {} : { id: b.id }),
      kind: b.kind,
      type: b.type,
      ...(b.appId ? { appId: b.appId } : {}),
      settings: b.settings,
    })),
  });
  const address = page.slug === "home" ? `/s/${business.slug}` : `/s/${business.slug}/pages/${page.slug}`;

  return (
    <div className="sb">
      <header className="sb-head">
        <div className="sb-title">
          <p className="small">
            <Link to="/admin/pages">← Site pages</Link>
          </p>
          <h1>{draft.title || "Untitled page"}</h1>
          <p className="muted small">
            Live at{" "}
            <a href={storefront(address)} target="_blank" rel="noreferrer">
              {storefront(address)}
            </a>{" "}
            {draft.isPublished ? <span className="badge ok">published</span> : <span className="badge">draft</span>}
          </p>
        </div>
        <Form method="post" className="sb-actions">
          <CsrfInput />
          <input type="hidden" name="page" value={payload} />
          <span className={`sb-status${dirty ? " is-dirty" : ""}`} role="status">
            {saving ? "Saving…" : dirty ? "Unsaved changes" : "All changes saved"}
          </span>
          <button
            type="button"
            className="button small"
            onClick={undo}
            disabled={history.past.length === 0}
            aria-keyshortcuts="Control+Z Meta+Z"
            title="Undo the last change (Ctrl+Z / ⌘Z)"
          >
            ↶ Undo
          </button>
          <label className="toggle">
            <input
              type="checkbox"
              role="switch"
              checked={draft.isPublished}
              onChange={(e) => {
                const on = e.target.checked;
                change((d) => ({ ...d, isPublished: on }));
              }}
            />
            <span className="toggle-track" aria-hidden />
            <span>Published</span>
          </label>
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? "Saving…" : "Save page"}
          </button>
        </Form>
      </header>
      <SuccessNotice show={params.get("saved") && !result && !dirty}>Page saved.</SuccessNotice>
      <ErrorAlert error={result?.error} />

      <div className="sb-grid">
        <section className="sb-side" aria-labelledby="sb-blocks-title">
          <label className="sb-field">
            Page title
            <input
              value={draft.title}
              onChange={(e) => {
                const title = e.target.value;
                change((d) => ({ ...d, title }), "title");
              }}
              maxLength={120}
            />
          </label>
          <h2 id="sb-blocks-title" className="sb-subtitle">
            Blocks
          </h2>
          <p className="muted small sb-hint">
            Click a block here or in the preview to edit it. Drag a block by its handle, or use ↑ ↓, to change the
            order.
          </p>
          {draft.blocks.length === 0 ? (
            <p className="empty small">This page has no blocks yet. Add one below.</p>
          ) : null}
          <ol className="sb-list" ref={listRef} aria-label="Page blocks">
            {draft.blocks.map((b, i) => {
              const def = defOf(b);
              const builtin = builtinOf(b);
              const name = nameOf(b);
              const isSelected = b.id === selected;
              const schema = def ? def.settingsSchema : builtin ? builtin.schema : null;
              const drop =
                dropAt?.id === b.id && dragging && dragging !== b.id
                  ? dropAt.after
                    ? " drop-after"
                    : " drop-before"
                  : "";
              return (
                <li
                  key={b.id}
                  className={`sb-item${isSelected ? " is-selected" : ""}${dragging === b.id ? " is-dragging" : ""}${drop}`}
                  data-testid="builder-block"
                  data-block-id={b.id}
                  onDragOver={(e) => {
                    if (!dragging) return;
                    e.preventDefault();
                    e.dataTransfer.dropEffect = "move";
                    const rect = e.currentTarget.getBoundingClientRect();
                    const after = e.clientY > rect.top + rect.height / 2;
                    if (dropAt?.id !== b.id || dropAt.after !== after) setDropAt({ id: b.id, after });
                  }}
                  onDrop={(e) => {
                    e.preventDefault();
                    const rect = e.currentTarget.getBoundingClientRect();
                    onDrop(b.id, e.clientY > rect.top + rect.height / 2);
                  }}
                >
                  <div
                    className="sb-item-bar"
                    draggable
                    onDragStart={(e) => {
                      e.dataTransfer.effectAllowed = "move";
                      e.dataTransfer.setData("text/plain", b.id);
                      setDragging(b.id);
                    }}
                    onDragEnd={() => {
                      setDragging(null);
                      setDropAt(null);
                    }}
                  >
                    <span className="sb-grip" aria-hidden title="Drag to move">
                      ⠿
                    </span>
                    <button
                      type="button"
                      className="sb-item-name"
                      aria-expanded={isSelected}
                      onClick={() => setSelected(isSelected ? null : b.id)}
                    >
                      <span className="sb-item-label">{name}</span>
                      <span className="sb-item-summary">{summary(b, def)}</span>
                    </button>
                    <span className="sb-item-actions">
                      <button
                        type="button"
                        className="button small"
                        onClick={() => move(b.id, i - 1)}
                        disabled={i === 0}
                        aria-label={`Move ${name} up`}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className="button small"
                        onClick={() => move(b.id, i + 1)}
                        disabled={i === draft.blocks.length - 1}
                        aria-label={`Move ${name} down`}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        className="button small"
                        onClick={() => remove(b.id)}
                        aria-label={`Remove ${name}`}
                      >
                        ✕
                      </button>
                    </span>
                  </div>
                  {isSelected ? (
                    <div className="sb-settings" role="region" aria-label={`Settings: ${name}`}>
                      {schema ? (
                        <SettingsForm
                          key={b.id}
                          schema={schema as Record<string, unknown>}
                          value={b.settings}
                          onChange={(v) => updateSettings(b.id, v)}
                          idPrefix={`block-${b.id}`}
                        />
                      ) : b.kind === "app" && !def ? (
                        <p className="muted small">
                          This app block is not available (the app was uninstalled or removed it). It stays on the page,
                          hidden from shoppers, and comes back with the app.
                        </p>
                      ) : (
                        <p className="muted small">This block has no settings.</p>
                      )}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <div className="sb-add">
            <button
              type="button"
              className="button sb-add-toggle"
              aria-expanded={picking}
              onClick={() => setPicking((p) => !p)}
            >
              {picking ? "Close" : "+ Add a block"}
            </button>
            {picking ? (
              <div className="sb-picker">
                <h3 className="small muted">Built-in</h3>
                <ul className="picker">
                  {BUILTIN_BLOCK_TYPES.map((t) => (
                    <li key={t.type}>
                      <button
                        type="button"
                        className="picker-item"
                        onClick={() => {
                          add({ id: tempId(), kind: "builtin", type: t.type, settings: { ...t.defaults } });
                          setPicking(false);
                        }}
                      >
                        <span className="picker-icon" aria-hidden>
                          {t.icon}
                        </span>
                        <span>
                          <strong>{t.name}</strong>
                          <span className="muted small">{t.description}</span>
                        </span>
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
                          <button
                            type="button"
                            className="picker-item"
                            onClick={() => {
                              addApp(a);
                              setPicking(false);
                            }}
                          >
                            <span className="picker-icon" aria-hidden>
                              {a.iconName ? a.iconName.slice(0, 1).toUpperCase() : "◆"}
                            </span>
                            <span>
                              <strong>{a.name}</strong>
                              <span className="muted small">{a.description || `from ${a.appName}`}</span>
                            </span>
                          </button>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
                {available.length === 0 ? (
                  <p className="muted small">
                    Install apps from the <Link to="/marketplace">marketplace</Link> to get more blocks.
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        </section>

        <section className="sb-preview" aria-labelledby="sb-preview-title">
          <div className="sb-preview-bar">
            <h2 id="sb-preview-title" className="sb-subtitle">
              Preview <span className="muted small">(not saved until you save the page)</span>
            </h2>
            <div className="sb-devices" role="group" aria-label="Preview width">
              {PREVIEW_DEVICES.map(([d, label]) => (
                <button
                  key={d}
                  type="button"
                  className="button small"
                  aria-pressed={device === d}
                  onClick={() => setDevice(d)}
                >
                  {label}
                </button>
              ))}
            </div>
          </div>
          <PreviewStage device={device}>
            {mounted ? (
              <iframe
                key={frameKey}
                ref={frame}
                src={preview.url}
                title={`Preview of ${draft.title || "the page"}`}
                className="sb-frame"
                data-device={device}
                // the storefront's own origin (its postMessage origin), no forms, popups or navigation of the builder
                sandbox="allow-scripts allow-same-origin"
              />
            ) : null}
            {previewState !== "ready" ? (
              <div className="sb-frame-state" role={previewState === "failed" ? "alert" : "status"}>
                {previewState === "failed" ? (
                  <>
                    <p>The preview did not load.</p>
                    <button type="button" className="button small" onClick={reloadPreview}>
                      Reload preview
                    </button>
                  </>
                ) : (
                  <p>Loading the preview…</p>
                )}
              </div>
            ) : null}
          </PreviewStage>
        </section>
      </div>

      {blocker.state === "blocked" ? (
        <LeaveDialog
          onStay={() => blocker.reset?.()}
          onLeave={() => {
            leaving.current = true;
            blocker.proceed?.();
          }}
        />
      ) : null}
    </div>
  );
}

/** One line under a block's name: what it shows. */
function summary(b: Block, def: Available | undefined): string {
  const s = b.settings ?? {};
  const text = (v: unknown) => (typeof v === "string" ? (v.length > 60 ? v.slice(0, 57) + "…" : v) : "");
  if (b.kind === "app") return def ? `from ${def.appName}` : "app not installed";
  if (b.type === "heading" || b.type === "text") return text(s.text) || "(empty)";
  if (b.type === "image") return text(s.alt) || text(s.url) || "(no address)";
  if (b.type === "product-grid") return `${typeof s.limit === "number" ? s.limit : 8} newest products`;
  return "";
}

/** Desktop: the storefront at 1024 px, scaled down to fit the pane. Phone: 390 px, true size. */
const DEVICE_WIDTH = { desktop: 1024, phone: 390 } as const;
type PreviewDevice = keyof typeof DEVICE_WIDTH;
/** The preview's width buttons, in the order they are shown. */
const PREVIEW_DEVICES: [PreviewDevice, string][] = [
  ["desktop", "Desktop"],
  ["phone", "Phone"],
];

/** useLayoutEffect in the browser (measured before the first paint), nothing on the server. */
const useBrowserLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

function PreviewStage({ device, children }: { device: PreviewDevice; children: React.ReactNode }) {
  const stage = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useBrowserLayoutEffect(() => {
    const el = stage.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const width = DEVICE_WIDTH[device];
  const scale = size ? Math.min(1, size.width / width) : 1;
  const style = size
    ? ({
        "--sb-w": `${width}px`,
        "--sb-h": `${Math.round(size.height / scale)}px`,
        "--sb-scale": String(scale),
      } as React.CSSProperties)
    : undefined;
  return (
    <div ref={stage} className={`sb-stage is-${device}`} style={style} data-scale={scale.toFixed(3)}>
      <div className="sb-device">{children}</div>
    </div>
  );
}

function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const stay = useRef<HTMLButtonElement>(null);
  const staying = useRef(onStay);
  staying.current = onStay;
  useEffect(() => {
    // the safe choice has the focus; Escape stays too
    stay.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") staying.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <div className="sb-dialog-backdrop">
      {/* the dialog keeps the keyboard's focus inside itself (Tab wraps), as a modal dialog must */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        className="sb-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="sb-leave-title"
        aria-describedby="sb-leave-text"
        onKeyDown={(e) => {
          // the focus stays in the dialog
          if (e.key !== "Tab") return;
          const buttons = [...e.currentTarget.querySelectorAll("button")];
          const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
          e.preventDefault();
          buttons[(at + (e.shiftKey ? buttons.length - 1 : 1)) % buttons.length]?.focus();
        }}
      >
        <h2 id="sb-leave-title">Leave without saving?</h2>
        <p id="sb-leave-text">Your changes to this page are not saved. If you leave now, they are lost.</p>
        <div className="row">
          <button type="button" className="button primary" ref={stay} onClick={onStay}>
            Stay on this page
          </button>
          <button type="button" className="button danger" onClick={onLeave}>
            Leave without saving
          </button>
        </div>
      </div>
    </div>
  );
}
