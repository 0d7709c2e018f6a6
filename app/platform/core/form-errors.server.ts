/**
 * Page forms show every error at once, next to its field, in words that start with the field's
 * label ("Image URL must be a relative path or an http(s) URL"), with a summary at the top
 * (app/components/form-errors.tsx). This module turns what the server knows (zod issues, an
 * ApiError's "field: message; field: message" text, a message about one field) into that shape.
 */
import type { z } from "zod";

/** A refused form's errors: one sentence per field, and those of no field (components/form-errors.tsx shows them). */
export type FormErrors = { fields: Record<string, string>; form: string[] };

/** field name → the label the form shows for it ("imageUrl" → "Image URL"). */
export type FieldLabels = Record<string, string>;

/** Messages that are about one field although they do not name it (a taken slug → "slug"). */
export type FieldOwners = { test: RegExp; field: string }[];

type Issue = z.core.$ZodIssue;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The words after the label. The schemas' own messages are phrases that follow a field's name
 * ("is required", "must be …"): they start with a lower-case letter and are kept. zod's default
 * messages ("Too big: expected string to have <=120 characters") are rewritten from the issue.
 */
export function issueWords(issue: Issue): string {
  if (/^[a-z]/.test(issue.message)) return issue.message;
  const i = issue as Issue & {
    origin?: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    expected?: string;
    input?: unknown;
    values?: unknown[];
    format?: string;
  };
  switch (issue.code) {
    case "too_small":
      if (i.origin === "string")
        return Number(i.minimum) <= 1
          ? "is required"
          : `must be at least ${plural(Number(i.minimum), "character", "characters")}`;
      if (i.origin === "array" || i.origin === "set")
        return Number(i.minimum) <= 1 ? "needs at least one choice" : `needs at least ${i.minimum} choices`;
      return `must be at least ${i.minimum}`;
    case "too_big":
      if (i.origin === "string") return `must be at most ${plural(Number(i.maximum), "character", "characters")}`;
      if (i.origin === "array" || i.origin === "set") return `may have at most ${i.maximum} entries`;
      return `must be at most ${i.maximum}`;
    case "invalid_type":
      return i.input === undefined || i.input === null ? "is required" : `must be a ${i.expected}`;
    case "invalid_value":
      return `must be one of ${(i.values ?? []).map(String).join(", ")}`;
    case "invalid_format":
      return i.format === "email"
        ? "must be an e-mail address"
        : i.format === "url"
          ? "must be a URL"
          : "is not in the expected format";
    case "not_multiple_of":
      return "must be a whole number";
    default:
      return "is not valid";
  }
}

function sentence(label: string, words: string) {
  return `${label} ${words}`;
}

/** The label of a field, falling back to its name when the form has no such field. */
const labelOf = (labels: FieldLabels, field: string) => labels[field] ?? field;

/**
 * Puts a field's sentence (the first one said about it wins); `line` is the index of the list
 * entry it is about ("Screenshots (line 2) must be …").
 */
function putField(out: FormErrors, labels: FieldLabels, field: string, line: number | undefined, words: string) {
  if (out.fields[field]) return;
  out.fields[field] = sentence(labelOf(labels, field) + (line !== undefined ? ` (line ${line + 1})` : ""), words);
}

/**
 * Every issue of a failed parse, one message per field (the first issue of each), each starting
 * with the field's label. An issue inside a list names the entry ("Screenshots (line 2) must be …").
 * An issue without a field, or on a field the form does not have, goes to the form's own messages.
 */
export function zodFormErrors(error: z.ZodError, labels: FieldLabels): FormErrors {
  const out: FormErrors = { fields: {}, form: [] };
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : "";
    const words = issueWords(issue);
    if (!field || !(field in labels)) {
      out.form.push(field ? sentence(field, words) : words.charAt(0).toUpperCase() + words.slice(1));
      continue;
    }
    putField(out, labels, field, typeof issue.path[1] === "number" ? issue.path[1] : undefined, words);
  }
  return out;
}

/**
 * An error message from a domain function as form errors. Messages built by describeZodError or
 * by hand as "field: words; field: words" are split and put next to their fields; `owners` maps
 * other messages to the field they are about (a taken slug); anything else is a form message.
 */
export function messageFormErrors(message: string, labels: FieldLabels, owners: FieldOwners = []): FormErrors {
  const out: FormErrors = { fields: {}, form: [] };
  for (const owner of owners)
    if (owner.test.test(message) && owner.field in labels) {
      out.fields[owner.field] = message;
      return out;
    }
  for (const part of message.split("; ")) {
    const m = /^([A-Za-z][\w]*)(?:\.(\d+))?(?:\.[\w.]+)?: (.+)$/s.exec(part);
    if (m && m[1] in labels) putField(out, labels, m[1], m[2] !== undefined ? Number(m[2]) : undefined, m[3]);
    else out.form.push(part);
  }
  return out;
}

/** Two sets of form errors as one (the first message of a field wins). */
export function mergeFormErrors(...all: FormErrors[]): FormErrors {
  const out: FormErrors = { fields: {}, form: [] };
  for (const e of all) {
    for (const [k, v] of Object.entries(e.fields)) out.fields[k] ??= v;
    out.form.push(...e.form);
  }
  return out;
}

export const hasFormErrors = (e: FormErrors) => Object.keys(e.fields).length > 0 || e.form.length > 0;
