/**
 * The portal's framing check (contract 9): does each renderUrl allow being framed by the
 * platform? It reads X-Frame-Options and CSP frame-ancestors; it warns, it never refuses a save.
 */
import type { Env } from "../core/env.server";
import { postOutbound } from "../outbound/outbound.server";
import type { Manifest } from "../shapes/manifest";

export type FramingResult = { field: string; url: string; ok: boolean; problem?: string };

export function framingProblem(
  headers: Record<string, string | string[] | undefined>,
  platformOrigin: string,
): string | null {
  const xfo = String(headers["x-frame-options"] ?? "")
    .trim()
    .toUpperCase();
  if (xfo === "DENY") return "X-Frame-Options: DENY forbids framing";
  if (xfo === "SAMEORIGIN") return "X-Frame-Options: SAMEORIGIN forbids framing by the platform";
  const csp = [headers["content-security-policy"]].flat().filter(Boolean).join(";");
  const directive = csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().startsWith("frame-ancestors"));
  if (directive) {
    const sources = directive.split(/\s+/).slice(1);
    const allowed = sources.some(
      (s) =>
        s === "*" ||
        s === platformOrigin ||
        (s.startsWith("https://*.") && platformOrigin.endsWith(s.slice(9))) ||
        s === new URL(platformOrigin).protocol,
    );
    if (!allowed) return `Content-Security-Policy "${directive}" does not allow ${platformOrigin}`;
  }
  return null;
}

export async function checkFraming(env: Env, manifest: Manifest): Promise<FramingResult[]> {
  const targets: { field: string; url: string }[] = [
    ...(manifest.blocks ?? []).map((b, i) => ({ field: `blocks[${i}].renderUrl`, url: b.renderUrl })),
    ...(manifest.embeds ?? []).flatMap((e, i) =>
      e.renderUrl ? [{ field: `embeds[${i}].renderUrl`, url: e.renderUrl }] : [],
    ),
    ...(manifest.adminPages ?? []).map((a, i) => ({ field: `adminPages[${i}].renderUrl`, url: a.renderUrl })),
  ];
  const origin = new URL(env.publicUrl).origin;
  return Promise.all(
    targets.map(async (t) => {
      const res = await postOutbound(
        t.url,
        "",
        { Accept: "text/html" },
        { timeoutMs: 4000, allowPrivate: env.outboundAllowPrivate, method: "GET" },
      );
      if (res.statusCode === null) return { ...t, ok: false, problem: `could not load it: ${res.error}` };
      if (res.statusCode >= 400) return { ...t, ok: false, problem: `it answers HTTP ${res.statusCode}` };
      const problem = framingProblem(res.headers ?? {}, origin);
      return problem ? { ...t, ok: false, problem } : { ...t, ok: true };
    }),
  );
}
