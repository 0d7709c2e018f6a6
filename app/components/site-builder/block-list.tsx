/**
 * The page's blocks, in order: select one (its settings open under it), drag it by its handle or
 * use ↑/↓ to move it, ✕ to remove it.
 */
import { forwardRef, useState } from "react";
import { blockInfo } from "./block-info";
import { SettingsPanel } from "./settings-panel";
import { dropBlock, moveBlock, type AvailableBlock, type Block, type ChangeDraft } from "./state";

type Props = {
  blocks: Block[];
  available: AvailableBlock[];
  selected: string | null;
  onSelect: (id: string | null) => void;
  change: ChangeDraft;
};

export const BlockList = forwardRef<HTMLOListElement, Props>(function BlockList(
  { blocks, available, selected, onSelect, change },
  ref,
) {
  // drag and drop (HTML5): the block being dragged, and where it would land
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ id: string; after: boolean } | null>(null);
  const onDrop = (targetId: string, after: boolean) => {
    const id = dragging;
    setDragging(null);
    setDropAt(null);
    if (!id || id === targetId) return;
    change((d) => dropBlock(d, id, targetId, after));
  };
  const move = (id: string, to: number) => change((d) => ({ ...d, blocks: moveBlock(d.blocks, id, to) }));
  const remove = (id: string) => change((d) => ({ ...d, blocks: d.blocks.filter((b) => b.id !== id) }));
  const updateSettings = (id: string, settings: Record<string, unknown>) =>
    change((d) => {
      const before = d.blocks.find((b) => b.id === id);
      if (!before || JSON.stringify(before.settings) === JSON.stringify(settings)) return d;
      return { ...d, blocks: d.blocks.map((b) => (b.id === id ? { ...b, settings } : b)) };
    }, `settings:${id}`);
  const afterOf = (e: React.DragEvent<HTMLElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return e.clientY > rect.top + rect.height / 2;
  };

  return (
    <ol className="sb-list" ref={ref} aria-label="Page blocks">
      {blocks.map((b, i) => {
        const info = blockInfo(b, available);
        const { name } = info;
        const isSelected = b.id === selected;
        const drop =
          dropAt?.id === b.id && dragging && dragging !== b.id ? (dropAt.after ? " drop-after" : " drop-before") : "";
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
              const after = afterOf(e);
              if (dropAt?.id !== b.id || dropAt.after !== after) setDropAt({ id: b.id, after });
            }}
            onDrop={(e) => {
              e.preventDefault();
              onDrop(b.id, afterOf(e));
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
                onClick={() => onSelect(isSelected ? null : b.id)}
              >
                <span className="sb-item-label">{name}</span>
                <span className="sb-item-summary">{info.summary}</span>
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
                  disabled={i === blocks.length - 1}
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
            {isSelected ? <SettingsPanel block={b} info={info} onChange={(v) => updateSettings(b.id, v)} /> : null}
          </li>
        );
      })}
    </ol>
  );
});
