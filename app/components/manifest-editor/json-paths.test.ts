import { describe, expect, it } from "vitest";
import { jsonLanguage } from "@codemirror/lang-json";
import {
  contextAt,
  fieldToPointer,
  locatePointer,
  partialValue,
  rootValue,
  splitServerMessage,
  syntaxErrorPosition,
} from "./json-paths";

const parse = (text: string) => jsonLanguage.parser.parse(text);
/** The context at the `|` in `marked` (the bar is removed from the text). */
function at(marked: string) {
  const pos = marked.indexOf("|");
  const text = marked.slice(0, pos) + marked.slice(pos + 1);
  return { ...contextAt(parse(text), text, pos), text } as { text: string; kind?: string; from: number; to: number };
}
/** The text a pointer is located at. */
function located(text: string, pointer: string) {
  const { from, to, found } = locatePointer(parse(text), text, pointer);
  return { text: text.slice(from, to), line: text.slice(0, from).split("\n").length, found };
}

describe("contextAt: what the cursor is in", () => {
  it("a key being typed in the top-level object, with or without the closing quote the editor adds", () => {
    for (const marked of ['{"bl|"}', '{"bl|}', '{\n  "bl|\n}', '{"hooks": [], "bl|"}'])
      expect(at(marked), marked).toMatchObject({ kind: "key", path: [], typed: "bl", quoted: true });
    expect(at('{"hooks": [], "bl|"}')).toMatchObject({ existing: ["hooks"] });
    const span = at('{"hooks": [], "bl|"}');
    expect(span.text.slice(span.from, span.to)).toBe('"bl"');
  });

  it("a key in an object inside an array, and an unquoted word", () => {
    expect(at('{"blocks": [{"name": "A"}, {"ren|"}]}')).toMatchObject({
      kind: "key",
      path: ["blocks", 1],
      typed: "ren",
      existing: [],
    });
    expect(at('{"blocks": [{"name": "A", ren|}]}')).toMatchObject({
      kind: "key",
      path: ["blocks", 0],
      typed: "ren",
      quoted: false,
      existing: ["name"],
    });
    expect(at('{"blocks": [{|}]}')).toMatchObject({ kind: "key", path: ["blocks", 0], typed: "" });
    // a key typed before another property (no comma yet): the keys after it still count as written
    expect(at('{"embeds": [{\n  "name": "A",\n  "|"\n  "kind": "GLOBAL_SCRIPT", "x": {"inner": 1}\n}]}')).toMatchObject(
      { kind: "key", path: ["embeds", 0], existing: ["name", "kind", "x"] },
    );
  });

  it("a value after a key: the path of that value", () => {
    expect(at('{"embeds": [{"kind": "GL|"}]}')).toMatchObject({
      kind: "value",
      path: ["embeds", 0, "kind"],
      typed: "GL",
      quoted: true,
    });
    expect(at('{"embeds": [{"name": "x", "kind": |}]}')).toMatchObject({
      kind: "value",
      path: ["embeds", 0, "kind"],
      typed: "",
    });
    expect(at('{"hooks": [{"url": "/x"}, {"hookPoint": "|"}]}')).toMatchObject({
      kind: "value",
      path: ["hooks", 1, "hookPoint"],
      typed: "",
    });
    expect(at('{"blocks": [{}, |]}')).toMatchObject({ kind: "value", path: ["blocks", 1] });
  });

  it("nothing after a complete value or outside the document", () => {
    expect(at('{"a": "b"|}').kind).toBeUndefined();
    expect(at('{"a": 1 |}').kind).toBeUndefined();
    expect(at('{"a": 1}|').kind).toBeUndefined();
    expect(at("|").kind).toBeUndefined();
  });
});

describe("locatePointer: where the server's error goes", () => {
  const text = JSON.stringify(
    {
      blocks: [
        { blockType: "a", name: "A", renderUrl: "https://a.example/a" },
        { blockType: "b", name: "B", renderUrl: "ftp://b", settingsSchema: { type: "object" } },
      ],
      hooks: [{ url: "/x" }],
    },
    null,
    2,
  );

  it("a property on one line: its key and value, at its line", () => {
    expect(located(text, "/blocks/1/renderUrl")).toEqual({ text: '"renderUrl": "ftp://b"', line: 11, found: true });
    expect(located(text, "/blocks/0/blockType")).toEqual({ text: '"blockType": "a"', line: 4, found: true });
  });

  it("a property spanning lines: its key", () => {
    expect(located(text, "/blocks/1/settingsSchema")).toEqual({ text: '"settingsSchema"', line: 12, found: true });
    expect(located(text, "/blocks")).toEqual({ text: '"blocks"', line: 2, found: true });
  });

  it("something missing (a required property): the first line of the nearest object", () => {
    expect(located(text, "/hooks/0/hookPoint")).toEqual({ text: "{", line: 18, found: false });
    expect(located(text, "/adminPages")).toEqual({ text: "{", line: 1, found: false });
    expect(located(text, "")).toEqual({ text: "{", line: 1, found: true });
    expect(located('{"a": 1}', "/b")).toEqual({ text: '{"a": 1}', line: 1, found: false });
  });

  it("keys with / and ~ (RFC 6901 escapes)", () => {
    expect(located('{"a/b": {"c~d": 1}}', "/a~1b/c~0d")).toMatchObject({ text: '"c~d": 1', found: true });
  });
});

describe("the server's field names", () => {
  it("become JSON pointers", () => {
    expect(fieldToPointer("blocks[0].renderUrl")).toBe("/blocks/0/renderUrl");
    expect(fieldToPointer("embeds[12]")).toBe("/embeds/12");
    expect(fieldToPointer("manifest")).toBe("");
    expect(fieldToPointer("manifest.settingsSchema")).toBe("/settingsSchema");
    expect(fieldToPointer("blocks[0].defaultConfig")).toBe("/blocks/0/defaultConfig");
    expect(fieldToPointer("not a field")).toBeNull();
  });

  it("are split from the message, which is kept whole", () => {
    expect(splitServerMessage('blocks[0].renderUrl: must match pattern "^https?://[^\\s]+$"')).toEqual({
      path: "/blocks/0/renderUrl",
      message: 'blocks[0].renderUrl: must match pattern "^https?://[^\\s]+$"',
    });
    expect(splitServerMessage("manifest: 70000 bytes exceeds 65536 bytes").path).toBe("");
    expect(splitServerMessage("Something without a field").path).toBe("");
  });
});

describe("partialValue and syntax errors", () => {
  it("reads what can be read from a document that does not parse", () => {
    const text = '{"embeds": [{"kind": "GLOBAL_SCRIPT", "pos"}], "hooks": [{"url": }]}';
    expect(partialValue(rootValue(parse(text)), text)).toEqual({ embeds: [{ kind: "GLOBAL_SCRIPT" }], hooks: [{}] });
  });

  it("finds where JSON.parse stopped", () => {
    const text = '{\n  "a": 1,\n}';
    let message = "";
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(syntaxErrorPosition(message, text)).toBe(text.indexOf("}"));
    expect(
      syntaxErrorPosition("Expected ',' or '}' after property value in JSON at position 12 (line 2 column 3)", text),
    ).toBe(12);
    expect(syntaxErrorPosition("Bad thing at line 2 column 3", text)).toBe(4);
    expect(syntaxErrorPosition("Unexpected end of JSON input", text)).toBe(text.length);
  });
});
