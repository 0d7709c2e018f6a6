/**
 * The site builder's state: the page being edited (the draft), its undo history, and the pure
 * changes made to it. No React here but `useDraft`, so each change can be read (and tested) alone.
 */
import { useCallback, useMemo, useReducer } from "react";

export type Block = {
  id: string;
  kind: "builtin" | "app";
  type: string;
  appId?: string;
  settings: Record<string, unknown>;
};
export type Draft = { title: string; isPublished: boolean; blocks: Block[] };

/** An app block the business may place: a block extension of one of its active installations (test installations too). */
export type AvailableBlock = {
  appId: string;
  appName: string;
  blockType: string;
  name: string;
  description: string;
  category: string;
  iconName: string;
  settingsSchema: unknown;
  defaultConfig: unknown;
};

/** What the builder is given: the business, the saved page, the blocks it may add, and the live preview's address. */
export type BuilderData = {
  business: { id: string; slug: string; locale: string };
  page: { slug: string; title: string; isPublished: boolean; blocks: unknown[]; version: string };
  available: AvailableBlock[];
  preview: { url: string; origin: string };
};

let counter = 0;
/** A block's id until the page is saved (the server gives it a real one; `new…` ids are never sent). */
export const tempId = () => `new${Date.now().toString(36)}${(counter++).toString(36)}`;

type History = { draft: Draft; past: Draft[]; lastKey: string | null; lastAt: number };
type Change = { type: "change"; update: (d: Draft) => Draft; key?: string; at: number } | { type: "undo" };
/** Typing in one field is one change while it goes on (less than 1.5 s between edits), not one per letter. */
const COALESCE_MS = 1500;
const MAX_UNDO = 100;

export function historyReducer(state: History, action: Change): History {
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

/** The draft of a saved page, its changes (`change(update, key?)`), undo, and whether it differs from the saved page. */
export function useDraft(saved: Draft) {
  const [history, dispatch] = useReducer(historyReducer, { draft: saved, past: [], lastKey: null, lastAt: 0 });
  const change = useCallback(
    (update: (d: Draft) => Draft, key?: string) => dispatch({ type: "change", update, key, at: Date.now() }),
    [],
  );
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const { draft } = history;
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(saved), [draft, saved]);
  return { draft, change, undo, canUndo: history.past.length > 0, dirty };
}

export type ChangeDraft = ReturnType<typeof useDraft>["change"];

/** The block moved to index `to` (clamped); the same array when nothing moves. */
export function moveBlock(blocks: Block[], id: string, to: number): Block[] {
  const from = blocks.findIndex((b) => b.id === id);
  if (from < 0) return blocks;
  const target = Math.max(0, Math.min(blocks.length - 1, to));
  if (target === from) return blocks;
  const copy = [...blocks];
  const [moved] = copy.splice(from, 1);
  copy.splice(target, 0, moved);
  return copy;
}

/** The block `id` dropped before or after `targetId`; the same draft when nothing moves. */
export function dropBlock(d: Draft, id: string, targetId: string, after: boolean): Draft {
  const without = d.blocks.filter((b) => b.id !== id);
  const at = without.findIndex((b) => b.id === targetId);
  const moved = d.blocks.find((b) => b.id === id);
  if (at < 0 || !moved) return d;
  const blocks = [...without];
  blocks.splice(after ? at + 1 : at, 0, moved);
  return blocks.every((b, i) => b.id === d.blocks[i].id) ? d : { ...d, blocks };
}

/** The block inserted after the block `afterId`, else at the end. */
export function insertBlock(d: Draft, block: Block, afterId: string | null): Draft {
  const at = d.blocks.findIndex((b) => b.id === afterId);
  const blocks = [...d.blocks];
  blocks.splice(at < 0 ? blocks.length : at + 1, 0, block);
  return { ...d, blocks };
}

/** A new block of an app, with the block's default settings. */
export const appBlock = (a: AvailableBlock): Block => ({
  id: tempId(),
  kind: "app",
  type: a.blockType,
  appId: a.appId,
  settings: { ...(a.defaultConfig as Record<string, unknown>) },
});

/** The body the save form sends: the draft, without the temporary ids of new blocks. */
export function savePayload(draft: Draft): string {
  return JSON.stringify({
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
}

/** A key press in a text field, where the field's own undo applies rather than the builder's. */
export const isEditable = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
