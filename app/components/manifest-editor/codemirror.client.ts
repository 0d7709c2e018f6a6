/**
 * The manifest editor: CodeMirror 6 with JSON, completion from the manifest's JSON Schema (the very
 * object the server validates with), the server's problems at their lines, format and examples.
 * Browser only: loaded by `manifest-editor.tsx` with a dynamic import once the page has hydrated,
 * so neither the server render nor any other page loads CodeMirror.
 *
 * CodeMirror adds its styles as <style> elements at run time: the platform pages' policy allows
 * that (`style-src 'self' 'unsafe-inline'`, page-csp.server.ts); nothing here needs script beyond
 * this module (no eval).
 */
import { EditorState, RangeSet, StateField, type Range, type Text } from "@codemirror/state";
import {
  Decoration,
  EditorView,
  WidgetType,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  ensureSyntaxTree,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { json, jsonLanguage } from "@codemirror/lang-json";
import {
  forEachDiagnostic,
  lintGutter,
  lintKeymap,
  linter,
  setDiagnosticsEffect,
  type Diagnostic,
} from "@codemirror/lint";
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  pickedCompletion,
  startCompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from "@codemirror/autocomplete";
import { manifestJsonSchema } from "~/platform/shapes/manifest";
import { contextAt, locatePointer, partialValue, rootValue, syntaxErrorPosition } from "./json-paths";
import { keyOptions, valueOptions, type JsonSchema } from "./schema-walk";
import { insertExample, type ExampleKind } from "./examples";

/** The server's schema itself (not a copy): what completes is what validates. */
const SCHEMA: JsonSchema = manifestJsonSchema;

export type Problem = { line: number; from: number; message: string };
export type ServerError = { path: string; message: string };
export type CheckStatus = "checked" | "unavailable" | "syntax";

export type ManifestEditorOptions = {
  parent: HTMLElement;
  text: string;
  /** ids of the visible label and of the help text (keys) */
  labelledBy: string;
  describedBy: string;
  /** where the examples' URLs point (the app's own origin) */
  exampleOrigin: string;
  /** asks the server for the manifest's problems; null when it could not be asked */
  check: (text: string) => Promise<ServerError[] | null>;
  onChange: (text: string) => void;
  onChecking: () => void;
  onProblems: (problems: Problem[], status: CheckStatus) => void;
};

export type ManifestEditorHandle = {
  view: EditorView;
  /** pretty-prints with 2 spaces; false when the JSON does not parse */
  format(): boolean;
  insertExample(kind: ExampleKind): { ok: true } | { ok: false; problem: string };
  /** replaces the text (an answer of the server), changing only what differs */
  setText(text: string): void;
  goTo(pos: number): void;
  focus(): void;
  destroy(): void;
};

function treeOf(state: EditorState) {
  return ensureSyntaxTree(state, state.doc.length, 200) ?? jsonLanguage.parser.parse(state.doc.toString());
}

/** One transaction that turns the document into `next`, touching only the part that differs. */
function minimalChange(doc: Text, next: string) {
  const current = doc.toString();
  if (current === next) return null;
  let start = 0;
  while (start < current.length && start < next.length && current[start] === next[start]) start++;
  let end = 0;
  while (
    end < current.length - start &&
    end < next.length - start &&
    current[current.length - 1 - end] === next[next.length - 1 - end]
  )
    end++;
  return { from: start, to: current.length - end, insert: next.slice(start, next.length - end) };
}

// ---- completion -------------------------------------------------------------------------------

/** The end of the token at `to` (the rest of a quoted string and its closing quote, or of a word). */
function tokenEnd(doc: Text, to: number, quoted: boolean): number {
  const rest = doc.sliceString(to, Math.min(doc.length, to + 200));
  return to + (quoted ? /^[^"\n]*"?/ : /^[\w$.-]*/).exec(rest)![0].length;
}

/**
 * The token a completion replaces (with its opening quote when it is a string) and the text after
 * it; `put` writes a replacement there and puts the cursor `cursor` characters into it.
 */
function tokenAt(view: EditorView, completion: Completion, from: number, to: number) {
  const doc = view.state.doc;
  const quoted = doc.sliceString(from - 1, from) === '"';
  const start = quoted ? from - 1 : from;
  const end = tokenEnd(doc, to, quoted);
  const after = doc.sliceString(end, Math.min(doc.length, end + 200));
  const put = (insert: string, cursor: number) =>
    view.dispatch({
      changes: { from: start, to: end, insert },
      selection: { anchor: start + cursor },
      annotations: pickedCompletion.of(completion),
      userEvent: "input.complete",
    });
  return { after, put };
}

function applyKey(name: string, type: string | undefined, hasValues: boolean) {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const { after, put } = tokenAt(view, completion, from, to);
    const key = JSON.stringify(name);
    if (/^\s*:/.test(after)) {
      // renaming the key of an existing property: its value stays
      put(key, key.length);
      return;
    }
    const template = type === "array" ? "[]" : type === "object" ? "{}" : type === "string" ? '""' : "";
    const comma = /^\s*"/.test(after) ? "," : "";
    const head = `${key}: `;
    put(head + template + comma, head.length + (template ? 1 : 0));
    if (hasValues) startCompletion(view);
  };
}

function applyValue(value: unknown) {
  return (view: EditorView, completion: Completion, from: number, to: number) => {
    const { after, put } = tokenAt(view, completion, from, to);
    put(JSON.stringify(value) + (/^\s*"/.test(after) ? "," : ""), JSON.stringify(value).length);
  };
}

/** Keys of the object at the cursor and values of enums, read from the schema at the cursor's path. */
function manifestCompletions(context: CompletionContext): CompletionResult | null {
  const { state, pos } = context;
  const text = state.doc.toString();
  const tree = treeOf(state);
  const at = contextAt(tree, text, pos);
  if (!at || (!at.quoted && !at.typed && !context.explicit)) return null;
  const root = partialValue(rootValue(tree), text);
  const from = at.quoted ? at.from + 1 : at.from;
  if (at.kind === "key") {
    // in the schema's order, required ones first (CodeMirror sorts equal matches by label otherwise)
    const options: Completion[] = keyOptions(SCHEMA, at.path, root, at.existing).map((o, i) => ({
      label: o.name,
      type: "property",
      detail: [o.type, o.required ? "required" : ""].filter(Boolean).join(", "),
      info: o.info,
      boost: (o.required ? 20 : 0) - i,
      apply: applyKey(o.name, o.type, valueOptions(SCHEMA, [...at.path, o.name], root).length > 0),
    }));
    return options.length ? { from, options, validFor: /^[\w$-]*$/ } : null;
  }
  const values = valueOptions(SCHEMA, at.path, root);
  if (!values.length) return null;
  return {
    from,
    options: values.map((v, i) => ({
      label: typeof v === "string" ? v : JSON.stringify(v),
      type: "enum",
      boost: -i,
      apply: applyValue(v),
    })),
    validFor: /^[\w$.-]*$/,
  };
}

// ---- problems at their lines ------------------------------------------------------------------

/** The messages of one line, shown below it (the list under the editor is the accessible copy). */
class LineMessages extends WidgetType {
  constructor(readonly messages: string[]) {
    super();
  }
  eq(other: LineMessages) {
    return other.messages.join("\n") === this.messages.join("\n");
  }
  toDOM() {
    const box = document.createElement("div");
    box.className = "cm-manifest-messages";
    box.setAttribute("aria-hidden", "true");
    for (const message of this.messages) {
      const line = document.createElement("div");
      line.className = "cm-manifest-message";
      line.textContent = message;
      box.append(line);
    }
    return box;
  }
  ignoreEvent() {
    return false;
  }
}

function lineMessages(state: EditorState, diagnostics: readonly Diagnostic[]): DecorationSet {
  const byLine = new Map<number, string[]>();
  for (const d of diagnostics) {
    const line = state.doc.lineAt(Math.min(d.from, state.doc.length));
    byLine.set(line.to, [...(byLine.get(line.to) ?? []), d.message]);
  }
  const ranges: Range<Decoration>[] = [...byLine].map(([at, messages]) =>
    Decoration.widget({ widget: new LineMessages(messages), block: true, side: 1 }).range(at),
  );
  return RangeSet.of(ranges, true);
}

const inlineMessages = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) if (effect.is(setDiagnosticsEffect)) return lineMessages(tr.state, effect.value);
    return value.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

// ---- the editor -------------------------------------------------------------------------------

const theme = EditorView.theme({
  "&": {
    height: "min(34rem, 70vh)",
    border: "1px solid var(--border, #dde2e8)",
    borderRadius: "8px",
    background: "#fff",
    fontSize: ".85rem",
  },
  "&.cm-focused": { outline: "2px solid var(--primary, #2f5bea)", outlineOffset: "1px" },
  ".cm-scroller": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    lineHeight: "1.5",
    overflow: "auto",
  },
  ".cm-gutters": {
    background: "#f8f9fb",
    color: "#5f6b7a",
    borderRight: "1px solid var(--border, #dde2e8)",
    borderRadius: "8px 0 0 8px",
  },
  ".cm-activeLine": { background: "#f3f6fd" },
  ".cm-activeLineGutter": { background: "#e8eefc", color: "#1d2330" },
  ".cm-manifest-messages": {
    margin: "0 0 .15rem",
    padding: ".1rem .5rem",
    borderLeft: "3px solid #c62f3e",
    background: "#fdecee",
    color: "#8c1d2a",
    fontFamily: "system-ui, sans-serif",
    fontSize: ".8rem",
    whiteSpace: "pre-wrap",
  },
  ".cm-lintRange-error": { backgroundColor: "#fde7ea" },
  ".cm-tooltip": { border: "1px solid #c5ccd6", borderRadius: "6px", background: "#fff", color: "#1d2330" },
  ".cm-tooltip-autocomplete > ul > li": { padding: ".15rem .5rem !important" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { background: "#2447bd", color: "#fff" },
  ".cm-completionDetail": { color: "inherit", opacity: ".85" },
  // on a narrow screen CodeMirror lays the info over the options below the selected one: let taps through
  ".cm-completionInfo": { padding: ".4rem .6rem", maxWidth: "22rem", pointerEvents: "none" },
  ".cm-diagnostic-error": { borderLeft: "4px solid #c62f3e" },
});

export function createManifestEditor(options: ManifestEditorOptions): ManifestEditorHandle {
  let status: CheckStatus = "checked";

  async function lintSource(view: EditorView): Promise<Diagnostic[]> {
    const state = view.state;
    const text = state.doc.toString();
    try {
      JSON.parse(text);
    } catch (e) {
      // the server's wording for this case (manifest-text.server.ts), with the browser's own message
      const message = (e as Error).message;
      const from = syntaxErrorPosition(message, text);
      status = "syntax";
      return [
        {
          from,
          to: Math.min(from + 1, text.length),
          severity: "error",
          source: "JSON",
          message: `manifest: not valid JSON (${message})`,
        },
      ];
    }
    const errors = await options.check(text);
    if (!errors) {
      status = "unavailable";
      return [];
    }
    status = "checked";
    const tree = treeOf(state);
    return errors.map((e) => ({
      ...locatePointer(tree, text, e.path),
      severity: "error" as const,
      source: "server",
      message: e.message,
    }));
  }

  const format = (view: EditorView): boolean => {
    let value: unknown;
    try {
      value = JSON.parse(view.state.doc.toString());
    } catch {
      return false;
    }
    const change = minimalChange(view.state.doc, JSON.stringify(value, null, 2));
    if (change) view.dispatch({ changes: change, userEvent: "format" });
    return true;
  };

  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        json(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        indentUnit.of("  "),
        EditorState.tabSize.of(2),
        autocompletion({ override: [manifestCompletions], icons: false }),
        linter(lintSource, { delay: 500 }),
        lintGutter(),
        inlineMessages,
        // Tab is left to move the focus out of the editor (keyboard users must be able to leave it)
        keymap.of([
          { key: "Shift-Alt-f", run: format, preventDefault: true },
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...lintKeymap,
        ]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          "aria-labelledby": options.labelledBy,
          "aria-describedby": options.describedBy,
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            options.onChange(update.state.doc.toString());
            options.onChecking();
          }
          for (const tr of update.transactions)
            for (const effect of tr.effects)
              if (effect.is(setDiagnosticsEffect)) {
                const problems: Problem[] = [];
                forEachDiagnostic(update.state, (d, from) =>
                  problems.push({ line: update.state.doc.lineAt(from).number, from, message: d.message }),
                );
                problems.sort((a, b) => a.from - b.from);
                options.onProblems(problems, status);
              }
        }),
        theme,
      ],
    }),
  });
  // a long manifest scrolls: the scroller takes the keyboard too (axe's scrollable-region-focusable),
  // so that a reader who tabs to it can scroll it without entering the text
  view.scrollDOM.tabIndex = 0;
  view.scrollDOM.setAttribute("aria-label", "Manifest (scrollable)");

  return {
    view,
    format: () => format(view),
    insertExample(kind) {
      const result = insertExample(treeOf(view.state), view.state.doc.toString(), kind, options.exampleOrigin);
      if (!result.ok) return result;
      const { from, to, insert, select } = result.change;
      view.dispatch({
        changes: { from, to, insert },
        selection: { anchor: select.from, head: select.to },
        scrollIntoView: true,
        userEvent: "input.paste",
      });
      view.focus();
      return { ok: true };
    },
    setText(text) {
      const change = minimalChange(view.state.doc, text);
      if (change) view.dispatch({ changes: change });
    },
    goTo(pos) {
      const at = Math.min(pos, view.state.doc.length);
      view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
      view.focus();
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
