import { useEffect, useRef, useState } from "react";
import { EXAMPLE_KINDS, EXAMPLE_LABELS, type ExampleKind } from "./example-kinds";
import type { CheckStatus, ManifestEditorHandle, Problem, ServerError } from "./codemirror.client";

type Props = {
  /** the manifest's text (the loader's, or the last answer of Check/Save) */
  text: string;
  /** the live check (a dry run): POST manifest + csrf, answers { errors: [{ path, message }] } */
  checkUrl: string;
  /** the origin the examples' URLs point to */
  exampleOrigin: string;
};

const ARRAY_NAMES: Record<ExampleKind, string> = {
  block: "blocks",
  script: "embeds",
  widget: "embeds",
  hook: "hooks",
  adminPage: "adminPages",
};

/**
 * The manifest's text field. Rendered by the server as a plain textarea (named `manifest`, so the
 * form works without JavaScript); in the browser it is replaced by a CodeMirror editor (loaded on
 * this page only) that keeps the textarea's value in step, so Check and Save post what is shown.
 */
export function ManifestEditor({ text, checkUrl, exampleOrigin }: Props) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<ManifestEditorHandle | null>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [checking, setChecking] = useState(true);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [status, setStatus] = useState<CheckStatus | null>(null);
  const [notice, setNotice] = useState("");

  useEffect(() => {
    let cancelled = false;
    let handle: ManifestEditorHandle | null = null;
    let form: HTMLFormElement | null = null;
    // format on save: before the form's data is read (this listener runs before React's)
    const onSubmit = (event: SubmitEvent) => {
      if ((event.submitter as HTMLButtonElement | null)?.value === "save") handleRef.current?.format();
    };
    const csrf = () => (textareaRef.current?.form?.elements.namedItem("csrf") as HTMLInputElement | null)?.value ?? "";
    const check = async (manifest: string): Promise<ServerError[] | null> => {
      try {
        const res = await fetch(checkUrl, {
          method: "POST",
          body: new URLSearchParams({ csrf: csrf(), manifest }),
          headers: { Accept: "application/json" },
        });
        if (!res.ok) return null;
        const answer = (await res.json()) as { errors?: ServerError[] };
        return Array.isArray(answer.errors) ? answer.errors : null;
      } catch {
        return null; // offline, signed out (the answer is the sign-in page), …
      }
    };
    import("./codemirror.client")
      .then(({ createManifestEditor }) => {
        const textarea = textareaRef.current;
        if (cancelled || !hostRef.current || !textarea) return;
        handle = createManifestEditor({
          parent: hostRef.current,
          text: textarea.value,
          labelledBy: "manifest-label",
          describedBy: "manifest-help",
          exampleOrigin,
          check,
          onChange: (value) => {
            if (textareaRef.current) textareaRef.current.value = value;
          },
          onChecking: () => setChecking(true),
          onProblems: (list, checked) => {
            setProblems(list);
            setStatus(checked);
            setChecking(false);
          },
        });
        handleRef.current = handle;
        textarea.hidden = true; // at once, not on the next render: one field under the label at any time
        form = textarea.form;
        form?.addEventListener("submit", onSubmit);
        setEnhanced(true);
      })
      .catch(() => {
        // the editor could not load: the textarea stays, and works
      });
    return () => {
      cancelled = true;
      form?.removeEventListener("submit", onSubmit);
      handle?.destroy();
      handleRef.current = null;
    };
    // the editor is made once; later texts arrive through setText below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // a new text from the server (Check answers the text sent; Save the stored, formatted manifest)
  useEffect(() => {
    handleRef.current?.setText(text);
  }, [text]);

  const format = () => {
    const ok = handleRef.current?.format();
    setNotice(ok ? "Formatted." : "The JSON has a syntax error (marked in the editor): fix it, then format.");
  };
  const insert = (kind: ExampleKind) => {
    const result = handleRef.current?.insertExample(kind);
    if (!result) return;
    setNotice(
      result.ok
        ? `Added an example ${EXAMPLE_LABELS[kind].toLowerCase()} to "${ARRAY_NAMES[kind]}": change its keys, names and URLs to your own.`
        : result.problem,
    );
  };

  const count = problems.length;
  const summary =
    status === null
      ? ""
      : status === "unavailable"
        ? "Could not check with the server just now; Check and Save still validate."
        : status === "syntax"
          ? "The JSON does not parse yet:"
          : count === 0
            ? "No problems: the server accepts this manifest."
            : `${count} ${count === 1 ? "problem" : "problems"}, in the server's words:`;

  return (
    <div className="manifest-field">
      <div className="manifest-header">
        {enhanced ? (
          <div id="manifest-label" className="manifest-label">
            Manifest JSON
          </div>
        ) : (
          <label id="manifest-label" htmlFor="manifest-text" className="manifest-label">
            Manifest JSON
          </label>
        )}
        {enhanced ? (
          <button type="button" className="button small" onClick={format}>
            Format
          </button>
        ) : null}
      </div>
      <p id="manifest-help" className="small muted">
        {enhanced
          ? "Type a quote for the keys that fit where the cursor is, Ctrl+Space to list them; enum values complete the same way. Shift+Alt+F formats, Ctrl+Shift+M lists the problems, Tab leaves the editor."
          : "The manifest as JSON."}
      </p>
      {enhanced ? (
        <div role="group" aria-labelledby="manifest-examples-label" className="manifest-examples">
          <span id="manifest-examples-label" className="small muted">
            Insert an example:
          </span>
          {EXAMPLE_KINDS.map((kind) => (
            <button key={kind} type="button" className="button small" onClick={() => insert(kind)}>
              {EXAMPLE_LABELS[kind]}
            </button>
          ))}
        </div>
      ) : null}
      {notice ? (
        <p className="small manifest-notice" role="status">
          {notice}
        </p>
      ) : null}
      <textarea
        id="manifest-text"
        ref={textareaRef}
        name="manifest"
        defaultValue={text}
        key={text}
        rows={28}
        spellCheck={false}
        className="code-input"
        hidden={enhanced}
      />
      <div ref={hostRef} className="manifest-editor-host" data-testid="manifest-editor" />
      {enhanced ? (
        <div className="manifest-problems" data-testid="manifest-live-problems">
          <p role="status" className={`small ${status === "checked" && count === 0 ? "ok-text" : ""}`}>
            {checking ? (
              <span aria-hidden="true" className="muted">
                Checking…{" "}
              </span>
            ) : null}
            {summary}
          </p>
          {count > 0 ? (
            <ul>
              {problems.map((p) => (
                <li key={`${p.from}:${p.message}`}>
                  <button type="button" className="button-link" onClick={() => handleRef.current?.goTo(p.from)}>
                    Line {p.line}
                  </button>{" "}
                  <code>{p.message}</code>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
