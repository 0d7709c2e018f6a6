/**
 * The Content-Security-Policy of the platform's own pages (admin, portal, reviewer, sign-in, consent,
 * marketplace; docs/security.md "Headers"): scripts only with the response's nonce (and what they
 * load, 'strict-dynamic'), no plugins, no <base>, forms only to this origin, never framed, and
 * frames only from the origins a page declares (the installed apps' blocks and admin pages it shows).
 *
 * A route's loader declares what its page needs, in its data:
 * - `cspFrameOrigins: string[]`: the origins of the iframes it shows (installed apps' blocks, admin pages);
 * - `cspFormActionOrigins: string[]`: where a form's answer redirects (the OAuth consent, to the app);
 * - `cspEval: true`: it renders JSON-Schema forms, and @rjsf/validator-ajv8 (the chosen stack)
 *   compiles schemas with `new Function` (decision 013).
 * A policy belongs to a document, so a client-side navigation to such a page is turned into a
 * document load (`needsOwnDocument`, used by entry.server's handleDataRequest).
 */
import { policySources } from "../core/urls";

export type PageCspNeeds = { frameOrigins: string[]; formActionOrigins: string[]; eval: boolean };

export function platformPageCsp(nonce: string, needs: PageCspNeeds): string {
  const frames = policySources(needs.frameOrigins);
  const formActions = policySources(needs.formActionOrigins);
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'${needs.eval ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: http: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${frames.length ? frames.join(" ") : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${formActions.length ? " " + formActions.join(" ") : ""}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** What the matched routes of a rendered page declare (see above). */
export function pageCspNeeds(
  matches: { route: { id: string } }[],
  loaderData: Record<string, unknown> | null | undefined,
): PageCspNeeds {
  const needs: PageCspNeeds = { frameOrigins: [], formActionOrigins: [], eval: false };
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((o): o is string => typeof o === "string") : []);
  for (const { route } of matches) {
    const data = loaderData?.[route.id] as
      { cspFrameOrigins?: unknown; cspFormActionOrigins?: unknown; cspEval?: unknown } | null | undefined;
    if (!data || typeof data !== "object") continue;
    needs.frameOrigins.push(...strings(data.cspFrameOrigins));
    needs.formActionOrigins.push(...strings(data.cspFormActionOrigins));
    if (data.cspEval === true) needs.eval = true;
  }
  return needs;
}

/**
 * Whether the loader data of a client-side navigation declares needs of its own (above), and the
 * navigation comes from another page: then the page must be loaded as a document, with its policy.
 * A revalidation of the page being shown (after a form on it) comes from that same page and stays.
 */
export function needsOwnDocument(request: Request, body: string): boolean {
  if (!/"csp(FrameOrigins|FormActionOrigins|Eval)":/.test(body)) return false;
  const url = new URL(request.url);
  let from: URL | null = null;
  try {
    from = new URL(request.headers.get("Referer") ?? "");
  } catch {
    from = null;
  }
  return !from || from.origin !== url.origin || from.pathname !== url.pathname;
}
