import { exactOrigin } from "~/platform/core/urls";
import { useEffect, useRef, useState } from "react";

/** The block iframe protocol of the spec and contract 10. */
export const MAX_BLOCK_HEIGHT = 400;

export type BlockFrameProps = {
  blockId: string;
  renderUrl: string;
  settings: Record<string, unknown>;
  businessId: string;
  locale: string;
  mode: "editor" | "storefront";
  sessionToken?: string | null;
  title: string;
  className?: string;
  /** FLOATING_WIDGET embeds use the same protocol */
  initialHeight?: number;
};

export const originOf = (url: string): string | null => exactOrigin(url);

/**
 * Hosts an app's block: answers SERVICE_BLOCK_READY with SERVICE_BLOCK_INIT, sends
 * SERVICE_BLOCK_UPDATE on every settings change without reloading, and applies
 * SERVICE_BLOCK_RESIZE (clamped to 0-400 px). Only messages whose source is this iframe and whose
 * origin is the renderUrl's origin are answered; messages are posted to that origin, never "*".
 */
export function BlockFrame({
  blockId,
  renderUrl,
  settings,
  businessId,
  locale,
  mode,
  sessionToken,
  title,
  className,
  initialHeight = 150,
}: BlockFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(initialHeight);
  // the iframe is created only after hydration, so that its READY never arrives before our listener
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const ready = useRef(false);
  const latest = useRef(settings);
  latest.current = settings;
  const origin = originOf(renderUrl);

  useEffect(() => {
    if (!origin) return;
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== origin) return;
      const data = event.data as { type?: unknown; height?: unknown } | null;
      if (!data || typeof data !== "object") return;
      if (data.type === "SERVICE_BLOCK_READY") {
        ready.current = true;
        frame.current.contentWindow?.postMessage(
          {
            type: "SERVICE_BLOCK_INIT",
            blockId,
            settings: latest.current,
            businessId,
            locale,
            mode,
            ...(mode === "editor" && sessionToken ? { sessionToken } : {}),
          },
          origin,
        );
      } else if (
        data.type === "SERVICE_BLOCK_RESIZE" &&
        typeof data.height === "number" &&
        Number.isFinite(data.height)
      ) {
        setHeight(Math.max(0, Math.min(MAX_BLOCK_HEIGHT, Math.round(data.height))));
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin, blockId, businessId, locale, mode, sessionToken]);

  const serialized = JSON.stringify(settings);
  useEffect(() => {
    if (ready.current && origin && frame.current?.contentWindow)
      frame.current.contentWindow.postMessage(
        { type: "SERVICE_BLOCK_UPDATE", blockId, settings: JSON.parse(serialized) },
        origin,
      );
  }, [serialized, blockId, origin]);

  if (!origin) return null;
  if (!mounted)
    return (
      <div
        className={className ?? "block-frame"}
        style={{ height, width: "100%" }}
        aria-busy="true"
        data-block-id={blockId}
      />
    );
  return (
    <iframe
      ref={frame}
      src={renderUrl}
      title={title}
      className={className ?? "block-frame"}
      data-block-id={blockId}
      style={{ height, width: "100%", border: 0, display: "block" }}
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      loading="lazy"
    />
  );
}
