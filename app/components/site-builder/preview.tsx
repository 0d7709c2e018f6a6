/**
 * The live preview (decision 017): the page as the storefront renders it, drawn from the unsaved
 * draft, in a frame of the storefront's origin (STOREFRONT_URL, where apps' code runs and the
 * platform's session never goes), opened with a short-lived preview token.
 *
 * The builder posts the draft to it (`PREVIEW_DRAFT`, targetOrigin = the storefront's origin)
 * whenever it changes and when the preview says `PREVIEW_READY`; the preview says `PREVIEW_SELECT`
 * when the merchant clicks a block and `PREVIEW_UNDO` on Ctrl/Cmd+Z. Messages are accepted only from
 * the preview frame's window on the storefront's origin, and can do no more than select a block or
 * undo.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useRevalidator } from "@remix-run/react";
import type { Draft } from "./state";

/** Desktop: the storefront at 1024 px, scaled down to fit the pane. Phone: 390 px, true size. */
const DEVICE_WIDTH = { desktop: 1024, phone: 390 } as const;
type PreviewDevice = keyof typeof DEVICE_WIDTH;
/** The preview's width buttons, in the order they are shown. */
const PREVIEW_DEVICES: [PreviewDevice, string][] = [
  ["desktop", "Desktop"],
  ["phone", "Phone"],
];
/** A preview that has not said READY after this long (its token expired, the network failed) is shown as failed. */
const READY_WITHIN_MS = 15_000;

export function PreviewPane({
  preview,
  draft,
  selected,
  onSelect,
  onUndo,
}: {
  preview: { url: string; origin: string };
  draft: Draft;
  selected: string | null;
  onSelect: (blockId: string) => void;
  onUndo: () => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [mounted, setMounted] = useState(false);
  const [device, setDevice] = useState<PreviewDevice>("desktop");
  useEffect(() => {
    setMounted(true);
    // on a narrow screen a desktop-wide preview would be too small to read
    if (window.innerWidth < 700) setDevice("phone");
  }, []);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [frameKey, setFrameKey] = useState(0);
  const revalidator = useRevalidator();
  const latest = useRef({ draft, selected, onSelect, onUndo });
  latest.current = { draft, selected, onSelect, onUndo };

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
        setState("ready");
        postDraft();
      } else if (message.type === "PREVIEW_UNDO") {
        latest.current.onUndo();
      } else if (message.type === "PREVIEW_SELECT" && typeof message.blockId === "string") {
        const id = message.blockId;
        if (latest.current.draft.blocks.some((b) => b.id === id)) latest.current.onSelect(id);
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [preview.origin, postDraft]);

  useEffect(() => {
    if (state === "ready") postDraft();
  }, [draft, selected, state, postDraft]);

  useEffect(() => {
    if (state !== "loading" || !mounted) return;
    const timer = setTimeout(() => setState((s) => (s === "loading" ? "failed" : s)), READY_WITHIN_MS);
    return () => clearTimeout(timer);
  }, [state, mounted, frameKey, preview.url]);
  useEffect(() => setState("loading"), [preview.url]);
  const reload = () => {
    setState("loading");
    // a fresh token comes with the builder's data
    revalidator.revalidate();
    setFrameKey((k) => k + 1);
  };

  return (
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
        {state !== "ready" ? (
          <div className="sb-frame-state" role={state === "failed" ? "alert" : "status"}>
            {state === "failed" ? (
              <>
                <p>The preview did not load.</p>
                <button type="button" className="button small" onClick={reload}>
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
  );
}

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
