/** The selected block's settings, under it in the list: its JSON-Schema form, or why there is none. */
import { SettingsForm } from "~/components/settings-form";
import type { Block } from "./state";
import type { BlockInfo } from "./block-info";
import { ImageUpload } from "./image-upload";

export function SettingsPanel({
  block,
  info,
  onChange,
}: {
  block: Block;
  info: BlockInfo;
  onChange: (settings: Record<string, unknown>) => void;
}) {
  return (
    <div className="sb-settings" role="region" aria-label={`Settings: ${info.name}`}>
      {block.kind === "builtin" && block.type === "image" ? (
        <ImageUpload onUploaded={(url) => onChange({ ...block.settings, url })} />
      ) : null}
      {info.schema ? (
        <SettingsForm
          key={block.id}
          schema={info.schema}
          value={block.settings}
          onChange={onChange}
          idPrefix={`block-${block.id}`}
        />
      ) : block.kind === "app" && !info.def ? (
        <p className="muted small">
          This app block is not available (the app was uninstalled or removed it). It stays on the page, hidden from
          shoppers, and comes back with the app.
        </p>
      ) : (
        <p className="muted small">This block has no settings.</p>
      )}
    </div>
  );
}
