/**
 * The site builder (decision 017), the one component wherever a page is edited: the page's blocks
 * (select, drag to reorder, ↑/↓, remove, add), the selected block's settings under it, and beside
 * them the live preview, drawn from the unsaved draft. Saving posts the draft (`page`, JSON) to the
 * route that renders it.
 *
 * Its parts: state.ts (the draft, undo, the changes), block-list.tsx and settings-panel.tsx,
 * block-picker.tsx, preview.tsx, leave-dialog.tsx.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useStorefrontUrl } from "~/components/origins";
import { CsrfInput } from "~/components/csrf";
import { ErrorAlert, SuccessNotice } from "~/components/page-parts";
import { BlockList } from "./block-list";
import { BlockPicker } from "./block-picker";
import { useLeaveGuard } from "./leave-dialog";
import { PreviewPane } from "./preview";
import { insertBlock, isEditable, savePayload, useDraft, type Block, type BuilderData, type Draft } from "./state";

export type { BuilderData } from "./state";

export function SiteBuilder({
  data,
  selectedIndex,
  error,
  savedNotice,
  sandbox,
}: {
  data: BuilderData;
  /** The selected block's place, kept across a save (render the builder with `key={data.page.version}`). */
  selectedIndex: React.MutableRefObject<number | null>;
  error?: string | null;
  /** The page was just saved (shown until the next change). */
  savedNotice: boolean;
  /** A developer's sandbox: the picker points at their apps rather than the marketplace. */
  sandbox?: boolean;
}) {
  const { business, page, available, preview } = data;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" || (navigation.state === "loading" && navigation.formMethod != null);
  const storefront = useStorefrontUrl();

  const saved = useMemo<Draft>(
    () => ({ title: page.title, isPublished: page.isPublished, blocks: page.blocks as Block[] }),
    [page],
  );
  const { draft, change, undo, canUndo, dirty } = useDraft(saved);

  const [selected, setSelected] = useState<string | null>(
    () => saved.blocks[selectedIndex.current ?? -1]?.id ?? saved.blocks[0]?.id ?? null,
  );
  useEffect(() => {
    const i = draft.blocks.findIndex((b) => b.id === selected);
    selectedIndex.current = i >= 0 ? i : null;
    // an undone addition takes its selection with it
    if (selected && i < 0) setSelected(null);
  }, [draft.blocks, selected, selectedIndex]);

  const add = (block: Block) => {
    // after the selected block, else at the end
    change((d) => insertBlock(d, block, selected));
    setSelected(block.id);
  };

  // undo from the keyboard, outside text fields (where the field's own undo applies)
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

  const leaveDialog = useLeaveGuard(dirty);
  const listRef = useRef<HTMLOListElement>(null);
  const selectFromPreview = (id: string) => {
    setSelected(id);
    requestAnimationFrame(() =>
      listRef.current?.querySelector(`[data-block-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest" }),
    );
  };

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
          <input type="hidden" name="page" value={savePayload(draft)} />
          <span className={`sb-status${dirty ? " is-dirty" : ""}`} role="status">
            {saving ? "Saving…" : dirty ? "Unsaved changes" : "All changes saved"}
          </span>
          <button
            type="button"
            className="button small"
            onClick={undo}
            disabled={!canUndo}
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
      <SuccessNotice show={savedNotice && !error && !dirty}>Page saved.</SuccessNotice>
      <ErrorAlert error={error} />

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
          <BlockList
            ref={listRef}
            blocks={draft.blocks}
            available={available}
            selected={selected}
            onSelect={setSelected}
            change={change}
          />
          <BlockPicker available={available} onAdd={add} sandbox={sandbox} />
        </section>

        <PreviewPane preview={preview} draft={draft} selected={selected} onSelect={selectFromPreview} onUndo={undo} />
      </div>
      {leaveDialog}
    </div>
  );
}
