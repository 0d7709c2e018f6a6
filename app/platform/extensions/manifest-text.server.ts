/**
 * A manifest as the developer typed it in the portal's editor: parsed and validated, every problem
 * in the server's own words (`blocks[0].renderUrl: must match pattern …`). Used by the manifest
 * page's Check and Save and by its live check as the developer types (the lint route).
 */
import { validateManifest } from "../shapes/manifest";

export function checkManifestText(text: string): { raw: unknown; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { raw: undefined, problems: [`manifest: not valid JSON (${(e as Error).message})`] };
  }
  const problems =
    typeof raw === "object" && raw !== null && !Array.isArray(raw)
      ? validateManifest(raw)
      : ["manifest: must be a JSON object"];
  return { raw, problems };
}
