/**
 * "+ Add a block": the built-in blocks, then the blocks of the business's installed apps grouped by
 * category (a developer's sandbox offers the blocks of their test installations, draft apps too).
 */
import { useMemo, useState } from "react";
import { Link } from "@remix-run/react";
import { BUILTIN_BLOCK_TYPES } from "~/platform/extensions/builtin-blocks";
import { appBlock, tempId, type AvailableBlock, type Block } from "./state";

export function BlockPicker({
  available,
  onAdd,
  sandbox,
}: {
  available: AvailableBlock[];
  onAdd: (block: Block) => void;
  sandbox?: boolean;
}) {
  const [picking, setPicking] = useState(false);
  const groups = useMemo(() => {
    const map = new Map<string, AvailableBlock[]>();
    for (const a of available) map.set(a.category, [...(map.get(a.category) ?? []), a]);
    return [...map.entries()];
  }, [available]);
  const add = (block: Block) => {
    onAdd(block);
    setPicking(false);
  };
  return (
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
                <PickerItem
                  icon={t.icon}
                  name={t.name}
                  description={t.description}
                  onClick={() => add({ id: tempId(), kind: "builtin", type: t.type, settings: { ...t.defaults } })}
                />
              </li>
            ))}
          </ul>
          {groups.map(([category, items]) => (
            <div key={category}>
              <h3 className="small muted">{category}</h3>
              <ul className="picker">
                {items.map((a) => (
                  <li key={`${a.appId}:${a.blockType}`}>
                    <PickerItem
                      icon={a.iconName ? a.iconName.slice(0, 1).toUpperCase() : "◆"}
                      name={a.name}
                      description={a.description || `from ${a.appName}`}
                      onClick={() => add(appBlock(a))}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {available.length === 0 ? (
            sandbox ? (
              <p className="muted small">
                Test-install one of <Link to="/portal/apps">your apps</Link> to place its blocks here.
              </p>
            ) : (
              <p className="muted small">
                Install apps from the <Link to="/marketplace">marketplace</Link> to get more blocks.
              </p>
            )
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function PickerItem({
  icon,
  name,
  description,
  onClick,
}: {
  icon: string;
  name: string;
  description: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="picker-item" onClick={onClick}>
      <span className="picker-icon" aria-hidden>
        {icon}
      </span>
      <span>
        <strong>{name}</strong>
        <span className="muted small">{description}</span>
      </span>
    </button>
  );
}
