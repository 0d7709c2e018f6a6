import { describe, expect, it } from "vitest";
import { jsonLanguage } from "@codemirror/lang-json";
import { manifestJsonSchema, validateManifest } from "~/platform/shapes/manifest";
import { keyOptions, schemaAt, valueOptions, type JsonSchema } from "./schema-walk";
import { EXAMPLE_LABELS, insertExample, type ExampleKind } from "./examples";

const schema: JsonSchema = manifestJsonSchema;

describe("the manifest's schema at a path", () => {
  it("offers the top-level keys not written yet", () => {
    expect(keyOptions(schema, [], {}, []).map((o) => o.name)).toEqual([
      "settingsSchema",
      "blocks",
      "embeds",
      "hooks",
      "adminPages",
    ]);
    expect(keyOptions(schema, [], {}, ["hooks", "embeds"]).map((o) => o.name)).toEqual([
      "settingsSchema",
      "blocks",
      "adminPages",
    ]);
    expect(keyOptions(schema, [], {}, []).find((o) => o.name === "blocks")).toMatchObject({
      type: "array",
      info: "A list of at most 20.",
    });
  });

  it("offers a block's keys, required ones first, with what each takes", () => {
    const options = keyOptions(schema, ["blocks", 0], { blocks: [{}] }, ["name"]);
    expect(options.slice(0, 2).map((o) => [o.name, o.required])).toEqual([
      ["blockType", true],
      ["renderUrl", true],
    ]);
    expect(options.find((o) => o.name === "renderUrl")!.info).toBe("An absolute http(s) URL. At most 2000 characters.");
    expect(options.find((o) => o.name === "blockType")!.info).toBe("A key: lowercase letters, digits, - and _.");
  });

  it("offers enum values: kind, position (narrowed by kind) and hookPoint", () => {
    expect(valueOptions(schema, ["embeds", 0, "kind"], { embeds: [{}] })).toEqual(["GLOBAL_SCRIPT", "FLOATING_WIDGET"]);
    expect(valueOptions(schema, ["embeds", 0, "position"], { embeds: [{}] })).toEqual([
      "head",
      "body_end",
      "bottom_right",
      "bottom_left",
    ]);
    expect(valueOptions(schema, ["embeds", 0, "position"], { embeds: [{ kind: "GLOBAL_SCRIPT" }] })).toEqual([
      "head",
      "body_end",
    ]);
    expect(
      valueOptions(schema, ["embeds", 1, "position"], {
        embeds: [{ kind: "GLOBAL_SCRIPT" }, { kind: "FLOATING_WIDGET" }],
      }),
    ).toEqual(["bottom_right", "bottom_left"]);
    expect(valueOptions(schema, ["hooks", 0, "hookPoint"], {})).toContain("order.calculate_discounts");
    expect(valueOptions(schema, ["blocks", 0, "renderUrl"], {})).toEqual([]);
  });

  it("a widget requires renderUrl, a script scriptUrl", () => {
    const required = (kind: string) =>
      keyOptions(schema, ["embeds", 0], { embeds: [{ kind }] }, ["kind"])
        .filter((o) => o.required)
        .map((o) => o.name);
    expect(required("FLOATING_WIDGET")).toEqual(["embedType", "name", "position", "renderUrl"]);
    expect(required("GLOBAL_SCRIPT")).toEqual(["embedType", "name", "position", "scriptUrl"]);
  });

  it("says nothing inside free-form objects", () => {
    expect(schemaAt(schema, ["blocks", 0, "settingsSchema", "properties"], {})).toBeNull();
    expect(keyOptions(schema, ["blocks", 0, "defaultConfig"], {}, [])).toEqual([]);
  });
});

describe("insert an example", () => {
  const parse = (text: string) => jsonLanguage.parser.parse(text);
  const apply = (text: string, kind: ExampleKind) => {
    const result = insertExample(parse(text), text, kind, "https://app.example");
    if (!result.ok) throw new Error(result.problem);
    const { from, to, insert, select } = result.change;
    const next = text.slice(0, from) + insert + text.slice(to);
    return { next, selected: next.slice(select.from, select.to), manifest: JSON.parse(next) };
  };

  it("every example is valid for the server, in an empty manifest", () => {
    for (const kind of Object.keys(EXAMPLE_LABELS) as ExampleKind[]) {
      const { manifest, selected } = apply("{}", kind);
      expect(validateManifest(manifest), kind).toEqual([]);
      expect(JSON.parse(selected), kind).toBeTypeOf("object");
    }
  });

  it("goes after the last item of its list, keeping the text around it, with a key of its own", () => {
    const text = JSON.stringify(
      { blocks: [{ blockType: "example-block", name: "Mine", renderUrl: "https://app.example/b" }], hooks: [] },
      null,
      2,
    );
    const { next, manifest } = apply(text, "block");
    expect(next.startsWith(text.slice(0, text.indexOf("}") + 1))).toBe(true);
    expect(manifest.blocks.map((b: { blockType: string }) => b.blockType)).toEqual([
      "example-block",
      "example-block-2",
    ]);
    expect(next).toBe(JSON.stringify(manifest, null, 2)); // indented as the rest
    expect(validateManifest(manifest)).toEqual([]);
  });

  it("fills an empty list, creates a missing one, replaces a null", () => {
    const empty = apply('{\n  "hooks": []\n}', "hook");
    expect(empty.next).toBe(JSON.stringify(empty.manifest, null, 2));
    expect(empty.manifest.hooks[0].hookPoint).toBe("checkout.payment_methods");
    const created = apply('{\n  "blocks": []\n}', "adminPage");
    expect(created.next).toBe(JSON.stringify(created.manifest, null, 2));
    expect(created.manifest.adminPages).toHaveLength(1);
    expect(apply('{"embeds": null}', "widget").manifest.embeds[0]).toMatchObject({
      kind: "FLOATING_WIDGET",
      position: "bottom_right",
    });
    expect(apply('{"blocks": []}', "script").manifest.embeds[0]).toMatchObject({
      kind: "GLOBAL_SCRIPT",
      scriptUrl: "https://app.example/embeds/example-script.js",
    });
  });

  it("takes the next free hook point, and refuses when none is left or the JSON does not parse", () => {
    const four = {
      hooks: ["checkout.payment_methods", "checkout.create_payment", "checkout.shipping_rates", "order.validate"].map(
        (hookPoint) => ({ hookPoint, url: "/h" }),
      ),
    };
    const text = JSON.stringify(four);
    expect(apply(text, "hook").manifest.hooks[4].hookPoint).toBe("order.calculate_discounts");
    const five = apply(text, "hook").next;
    expect(insertExample(parse(five), five, "hook", "https://app.example")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("Every hook point"),
    });
    expect(insertExample(parse('{"a": '), '{"a": ', "block", "https://app.example")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("Fix the JSON error first"),
    });
    expect(insertExample(parse("[]"), "[]", "block", "https://app.example")).toMatchObject({ ok: false });
  });
});
