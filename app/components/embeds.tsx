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
  /** a FLOATING_WIDGET's place as the merchant chose it (decision 061) */
  placement?: { corner: "bottom_right" | "bottom_left"; offset: number; showOnPhones: boolean } | null;
};

/**
 * What a floating widget never covers (decision 061): the shop's header and the page's main
 * actions (add to cart, checkout, place order: the primary buttons), plus anything marked
 * `data-keep-clear`.
 */
export const KEEP_CLEAR = ".sf-header, .sf-button-primary, [data-keep-clear]";
const GAP = 8;

type Box = { top: number; bottom: number; left: number; right: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Keeps a widget's launcher off the shop's header and main actions as the page scrolls and resizes:
 * lifted just above an action it would cover, or hidden (`data-clear="hidden"`) when no place in
 * its corner is free; its open panel stops below the header. Measured after each frame that
 * scrolled or resized, from the boxes the browser laid out.
 */
function useKeepClear(widget: React.RefObject<HTMLDivElement>, launcher: React.RefObject<HTMLButtonElement>) {
  useEffect(() => {
    const el = widget.current;
    const button = launcher.current;
    if (!el || !button) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      el.style.setProperty("--embed-lift", "0px");
      el.removeAttribute("data-clear");
      if (getComputedStyle(el).display === "none") return;
      const base = button.getBoundingClientRect();
      const avoid = [...document.querySelectorAll<HTMLElement>(KEEP_CLEAR)]
        .filter((a) => !el.contains(a) && a.offsetParent !== null)
        .map((a) => a.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight);
      const header = document.querySelector(".sf-header")?.getBoundingClientRect();
      const headerBottom = header && header.bottom > 0 ? header.bottom : 0;
      el.style.setProperty("--embed-top-clear", `${Math.ceil(headerBottom + GAP)}px`);
      // lift step by step above whatever the launcher would cover, while it stays below the header
      let lift = 0;
      for (let tries = 0; tries < 8; tries++) {
        const at: Box = { top: base.top - lift, bottom: base.bottom - lift, left: base.left, right: base.right };
        const hit = avoid.find((r) =>
          overlaps(at, { top: r.top - GAP, bottom: r.bottom + GAP, left: r.left, right: r.right }),
        );
        if (!hit) {
          if (lift) el.style.setProperty("--embed-lift", `${Math.ceil(lift)}px`);
          return;
        }
        lift = base.bottom - hit.top + GAP;
        if (base.top - lift < headerBottom + GAP) break;
      }
      el.setAttribute("data-clear", "hidden");
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    const observer = new ResizeObserver(schedule);
    observer.observe(document.body);
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [widget, launcher]);
}

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
 * 0-400 px, source and origin checked). Launchers of one corner stack upwards. The merchant chooses
 * the corner, an offset above the bottom edge and whether phones show it (decision 061); the launcher
 * keeps off the header and the page's main actions (`useKeepClear`).
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
          stack={widgets.filter((w) => cornerOf(w) === cornerOf(e)).indexOf(e)}
          businessId={data.business.id}
          locale={data.business.locale}
        />
      ))}
    </>
  );
}

const cornerOf = (e: EmbedView) =>
  e.placement?.corner ?? (e.position === "bottom_left" ? "bottom_left" : "bottom_right");

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
  const box = useRef<HTMLDivElement>(null);
  useKeepClear(box, launcher);
  const offset = Math.max(0, Math.min(400, Math.round(embed.placement?.offset ?? 0)));
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
      ref={box}
      className={`embed-widget ${cornerOf(embed)}${open ? " is-open" : ""}${embed.placement?.showOnPhones === false ? " not-on-phones" : ""}`}
      style={{ "--embed-stack": stack, "--embed-offset": `${offset}px` } as CSSProperties}
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
