import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type CSSProperties } from "react";
import { BlockFrame } from "./block-frame";

export type EmbedView = {
  appSlug: string;
  embedType: string;
  name: string;
  kind: "GLOBAL_SCRIPT" | "FLOATING_WIDGET";
  position: "head" | "body_end" | "bottom_right" | "bottom_left";
  scriptUrl?: string;
  renderUrl?: string;
  /** the app's icon (http(s) only), shown on a FLOATING_WIDGET's launcher */
  iconUrl?: string;
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

/**
 * FLOATING_WIDGET embeds: each starts as a small launcher button in its corner (inside the screen's
 * safe area) and opens to its iframe on click, a panel above the launcher, or on a phone a bottom
 * sheet with a close button. The iframe is created at the first opening and kept while the page
 * lives; it speaks the block protocol (BlockFrame: INIT after READY, UPDATE, RESIZE clamped to
 * 0-400 px, source and origin checked). Launchers of one corner stack upwards.
 */
export function FloatingWidgets() {
  const data = useStorefront();
  if (!data) return null;
  const widgets = data.embeds.filter((e) => e.kind === "FLOATING_WIDGET" && e.renderUrl);
  return (
    <>
      {widgets.map((e) => (
        <FloatingWidget
          key={`${e.appSlug}:${e.embedType}`}
          embed={e}
          stack={widgets.filter((w) => w.position === e.position).indexOf(e)}
          businessId={data.business.id}
          locale={data.business.locale}
        />
      ))}
    </>
  );
}

function FloatingWidget({
  embed,
  stack,
  businessId,
  locale,
}: {
  embed: EmbedView;
  stack: number;
  businessId: string;
  locale: string;
}) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState(false);
  const launcher = useRef<HTMLButtonElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const id = `embed-${embed.appSlug}-${embed.embedType}`;
  const close = () => {
    setOpen(false);
    launcher.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    closer.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <div
      className={`embed-widget ${embed.position}${open ? " is-open" : ""}`}
      style={{ "--embed-stack": stack } as CSSProperties}
      data-app={embed.appSlug}
      data-embed-type={embed.embedType}
    >
      <button
        ref={launcher}
        type="button"
        className="embed-launcher"
        aria-label={embed.name}
        aria-expanded={open}
        aria-controls={id}
        title={embed.name}
        onClick={() => {
          setCreated(true);
          setOpen(!open);
        }}
      >
        {embed.iconUrl ? (
          <img src={embed.iconUrl} alt="" width={32} height={32} />
        ) : (
          <span aria-hidden="true">{embed.name.trim().charAt(0).toUpperCase() || "•"}</span>
        )}
      </button>
      <section id={id} className="embed-panel" role="dialog" aria-label={embed.name} hidden={!open}>
        <header className="embed-panel-head">
          <span>{embed.name}</span>
          <button ref={closer} type="button" className="embed-close" aria-label={`Close ${embed.name}`} onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </header>
        {created ? (
          <BlockFrame
            blockId={`embed:${embed.appSlug}:${embed.embedType}`}
            renderUrl={embed.renderUrl!}
            settings={embed.settings}
            businessId={businessId}
            locale={locale}
            mode="storefront"
            title={embed.name}
            className="embed-frame"
            initialHeight={120}
          />
        ) : null}
      </section>
    </div>
  );
}
