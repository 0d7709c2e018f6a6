import { useRouteLoaderData } from "@remix-run/react";
import { BlockFrame } from "./block-frame";

export type EmbedView = {
  appSlug: string;
  embedType: string;
  name: string;
  kind: "GLOBAL_SCRIPT" | "FLOATING_WIDGET";
  position: "head" | "body_end" | "bottom_right" | "bottom_left";
  scriptUrl?: string;
  renderUrl?: string;
  settings: Record<string, unknown>;
};

type LayoutData = { business: { id: string; locale: string }; embeds: EmbedView[] };

const useStorefront = () => useRouteLoaderData("routes/s.$businessSlug") as LayoutData | undefined;

/** GLOBAL_SCRIPT embeds of the storefront being shown, in the head or at the end of the body. */
export function EmbedScripts({ position }: { position: "head" | "body_end" }) {
  const data = useStorefront();
  if (!data) return null;
  return (
    <>
      {data.embeds
        .filter((e) => e.kind === "GLOBAL_SCRIPT" && e.position === position && e.scriptUrl)
        .map((e) => (
          <script
            key={`${e.appSlug}:${e.embedType}`}
            src={e.scriptUrl}
            async
            data-app={e.appSlug}
            data-embed-type={e.embedType}
            data-business-id={data.business.id}
            data-settings={JSON.stringify(e.settings)}
          />
        ))}
    </>
  );
}

/** FLOATING_WIDGET embeds: fixed iframes in a corner, speaking the block protocol. */
export function FloatingWidgets() {
  const data = useStorefront();
  if (!data) return null;
  return (
    <>
      {data.embeds
        .filter((e) => e.kind === "FLOATING_WIDGET" && e.renderUrl)
        .map((e) => (
          <div key={`${e.appSlug}:${e.embedType}`} className={`embed-widget ${e.position}`} data-app={e.appSlug} data-embed-type={e.embedType}>
            <BlockFrame blockId={`embed:${e.appSlug}:${e.embedType}`} renderUrl={e.renderUrl!} settings={e.settings} businessId={data.business.id} locale={data.business.locale} mode="storefront" title={e.name} className="embed-frame" initialHeight={120} />
          </div>
        ))}
    </>
  );
}
