/**
 * `json()`'s answer keeps its text for the server (json-routes.server.ts writes it as is) and makes
 * its body stream only when something reads it as a Response: Remix's adapter (`?_data=`), a test's
 * `.json()`. Every way of reading it gives the same answer, once, like any Response.
 */
import { describe, expect, it } from "vitest";
import { json, jsonTextOf } from "./http.server";

describe("json()", () => {
  it("reads as any Response would: json, text, bytes, body stream, clone; once", async () => {
    const value = { data: [{ id: "p_1", name: "Mug — ø" }], total: 1 };
    const text = JSON.stringify(value);
    expect(await json(value).json()).toEqual(value);
    expect(await json(value).text()).toBe(text);
    expect(new TextDecoder().decode(await json(value).arrayBuffer())).toBe(text);
    expect(new TextDecoder().decode(await json(value).bytes())).toBe(text);
    expect(await (await json(value).blob()).text()).toBe(text);
    expect(await new Response(json(value).body).text()).toBe(text);

    const r = json(value, 201, { "X-Extra": "1" });
    expect(r.status).toBe(201);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("x-extra")).toBe("1");
    const copy = r.clone();
    expect(r.bodyUsed).toBe(false);
    expect(await r.json()).toEqual(value);
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow();
    expect(() => r.clone()).toThrow();
    // a used answer has no text left for the server either
    expect(jsonTextOf(r)).toBeUndefined();
    expect(await copy.json()).toEqual(value);
  });

  it("gives the server its text, also for the Remix build's own copy of the class", () => {
    expect(jsonTextOf(json({ a: 1 }))).toBe('{"a":1}');
    // the route modules come from build/index.js, the server from source: two JsonResponse classes
    class OtherCopy extends Response {
      constructor(readonly jsonText: string) {
        super(null);
      }
    }
    expect(jsonTextOf(new OtherCopy('{"b":2}'))).toBe('{"b":2}');
    expect(jsonTextOf(new Response('{"c":3}'))).toBeUndefined();
    expect(jsonTextOf(json(undefined))).toBeUndefined();
  });

  it("headers set after it is made (the wrappers' X-RateLimit and Api-Version) reach a reader", async () => {
    const r = json({ a: 1 });
    r.headers.set("Api-Version", "2026-11-21");
    expect(r.headers.get("api-version")).toBe("2026-11-21");
    expect(await r.json()).toEqual({ a: 1 });
  });
});
