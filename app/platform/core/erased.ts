/**
 * What an erased shopper's fields become (decision 040); shared by server code and the admin page,
 * which names them in its confirmation. The e-mail and the order notes become null.
 */
export const ERASED_NAME = "Erased customer";
export const ERASED_TEXT = "[erased]";

/** A value inside a regular expression, as itself. */
export const escapeForRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function leaves(value: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof value === "string") out.set(path, value);
  else if (Array.isArray(value)) value.forEach((x, i) => leaves(x, `${path}/${i}`, out));
  else if (value && typeof value === "object")
    for (const [k, x] of Object.entries(value)) leaves(x, `${path}/${JSON.stringify(k)}`, out);
  return out;
}

/**
 * What a receiver answered (or the error recorded for it) to a body that an erasure rewrote while the
 * call was out (decision 048): every string the sent body held that the stored body no longer holds at
 * the same place is replaced in `text`, in any case, longest first (a receiver that echoes what it got
 * gives back the values the erasure took out). A body that is not JSON leaves nothing to compare: the
 * text is not kept (null).
 */
export function answerWithoutErased(sentBody: string, storedBody: string, text: string | null): string | null {
  if (text === null || sentBody === storedBody) return text;
  let sent: Map<string, string>;
  let stored: Map<string, string>;
  try {
    sent = leaves(JSON.parse(sentBody));
    stored = leaves(JSON.parse(storedBody));
  } catch {
    return null;
  }
  const gone = [
    ...new Set([...sent].filter(([path, s]) => stored.get(path) !== s && s.trim() !== "").map(([, s]) => s)),
  ];
  let out = text;
  for (const s of gone.sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escapeForRegExp(s), "giu"), ERASED_TEXT);
    // an echo quotes the value as JSON (escaped quotes; non-ASCII as \u sequences, as many encoders do): those forms go too
    const quoted = JSON.stringify(s).slice(1, -1);
    const ascii = quoted.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    for (const form of new Set([quoted, ascii]))
      if (form !== s) out = out.replace(new RegExp(escapeForRegExp(form), "giu"), ERASED_TEXT);
  }
  return out;
}
