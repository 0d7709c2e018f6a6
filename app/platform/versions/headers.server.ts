/**
 * The headers of an answer, a webhook or a hook call in a deprecated API version (contract 12):
 * `Deprecation` (RFC 9745, `@<unix seconds>` of the day it was deprecated), `Sunset` (RFC 8594, an
 * HTTP-date) and a `Link` to the changelog with `rel="deprecation"`.
 */
import { changelogPath, type VersionState } from "./registry";

export function deprecationHeaders(state: VersionState, publicUrl: string): Record<string, string> {
  if (state.status !== "DEPRECATED" || !state.deprecatedAt || !state.sunsetAt) return {};
  return {
    Deprecation: `@${Math.floor(state.deprecatedAt.getTime() / 1000)}`,
    Sunset: state.sunsetAt.toUTCString(),
    Link: `<${publicUrl.replace(/\/+$/, "")}${changelogPath(state.version)}>; rel="deprecation"; type="text/html"`,
  };
}
