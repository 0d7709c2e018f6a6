import { describe, expect, it } from "vitest";
import { dropBlock, historyReducer, insertBlock, moveBlock, savePayload, type Block, type Draft } from "./state";

const b = (id: string): Block => ({ id, kind: "builtin", type: "text", settings: { text: id } });
const draft = (...ids: string[]): Draft => ({ title: "T", isPublished: true, blocks: ids.map(b) });
const ids = (d: Draft) => d.blocks.map((x) => x.id);

describe("the site builder's changes", () => {
  it("moves, drops and inserts blocks; a change that moves nothing answers the same draft", () => {
    const d = draft("a", "b", "c");
    expect(moveBlock(d.blocks, "a", 2).map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(moveBlock(d.blocks, "a", -5)).toBe(d.blocks);
    expect(ids(dropBlock(d, "c", "a", false))).toEqual(["c", "a", "b"]);
    expect(ids(dropBlock(d, "a", "b", true))).toEqual(["b", "a", "c"]);
    expect(dropBlock(d, "a", "b", false)).toBe(d);
    expect(ids(insertBlock(d, b("n"), "a"))).toEqual(["a", "n", "b", "c"]);
    expect(ids(insertBlock(d, b("n"), null))).toEqual(["a", "b", "c", "n"]);
  });

  it("undoes changes one at a time; typing in one field within 1.5 s is one change", () => {
    let h = { draft: draft("a"), past: [] as Draft[], lastKey: null as string | null, lastAt: 0 };
    const title = (t: string, at: number) =>
      (h = historyReducer(h, { type: "change", update: (d) => ({ ...d, title: t }), key: "title", at }));
    title("x", 1000);
    title("xy", 2000);
    title("xyz", 5000);
    expect(h.draft.title).toBe("xyz");
    h = historyReducer(h, { type: "undo" });
    expect(h.draft.title).toBe("xy");
    h = historyReducer(h, { type: "undo" });
    expect(h.draft.title).toBe("T");
    expect(historyReducer(h, { type: "undo" })).toBe(h);
  });

  it("sends new blocks without their temporary ids", () => {
    const d: Draft = {
      title: "Home",
      isPublished: false,
      blocks: [b("blk_1"), { id: "new1", kind: "app", type: "stars", appId: "app_1", settings: {} }],
    };
    expect(JSON.parse(savePayload(d))).toEqual({
      title: "Home",
      isPublished: false,
      blocks: [
        { id: "blk_1", kind: "builtin", type: "text", settings: { text: "blk_1" } },
        { kind: "app", type: "stars", appId: "app_1", settings: {} },
      ],
    });
  });
});
