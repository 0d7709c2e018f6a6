/**
 * Compressed answers (compression.server.ts) from the real server: pages, the JSON fast path, the
 * build's JavaScript and CSS; tiny bodies and no-transform answers left alone; and the CSRF token
 * masked afresh in every page (BREACH).
 */
import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import express from "express";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { compress } from "./compression.server";
import { tamper } from "../testing/tamper";

const p = await startPlatform();

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request whose body is returned as it came over the wire (fetch would decode it). */
function raw(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

const decode = (r: Raw) =>
  r.headers["content-encoding"] === "gzip"
    ? zlib.gunzipSync(r.body)
    : r.headers["content-encoding"] === "br"
      ? zlib.brotliDecompressSync(r.body)
      : r.body;

/** Per-response values of a page: its nonce and its masked CSRF token. */
const stable = (html: string) =>
  html.replace(/nonce(=|":)"[^"]+"/g, 'nonce$1"N"').replace(/("csrf":"|name="csrf" value=")[^"]+"/g, '$1T"');

async function storefrontPath() {
  const dev = await p.register("DEVELOPER");
  const [{ slug }] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${dev.businessId}`;
  return `/s/${slug}`;
}

describe("compressed answers", () => {
  it("compresses a page, its JavaScript and CSS with gzip or brotli, each decoding to the uncompressed body", async () => {
    const path = await storefrontPath();
    const plain = await raw(p.storefrontUrl + path);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const gzip = await raw(p.storefrontUrl + path, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    expect(stable(decode(gzip).toString("utf8"))).toBe(stable(plain.body.toString("utf8")));

    const html = plain.body.toString("utf8");
    // the largest of the page's scripts (React and Remix), and its stylesheet
    const scripts = [...new Set([...html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]))];
    const sizes = await Promise.all(scripts.map(async (s) => ({ s, n: (await raw(p.storefrontUrl + s)).body.length })));
    const script = sizes.sort((a, b) => b.n - a.n)[0].s;
    const style = /href="(\/build\/_assets\/[^"]+\.css)"/.exec(html)![1];
    for (const asset of [script, style]) {
      const identity = await raw(p.storefrontUrl + asset);
      expect(identity.headers["content-encoding"]).toBeUndefined();
      for (const encoding of ["gzip", "br"]) {
        const packed = await raw(p.storefrontUrl + asset, { "Accept-Encoding": encoding });
        expect(packed.headers["content-encoding"], `${asset} ${encoding}`).toBe(encoding);
        const decoded = decode(packed);
        expect({ asset, encoding, length: decoded.length, same: decoded.equals(identity.body) }).toEqual({
          asset,
          encoding,
          length: identity.body.length,
          same: true,
        });
      }
    }
    // brotli is preferred when both are offered
    const both = await raw(p.storefrontUrl + style, { "Accept-Encoding": "gzip, deflate, br" });
    expect(both.headers["content-encoding"]).toBe("br");
  });

  it("compresses the JSON fast path's answers", async () => {
    const plain = await raw(p.url + "/app-api/openapi.json");
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(10_000);
    const gzip = await raw(p.url + "/app-api/openapi.json", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers["content-type"]).toMatch(/application\/json/);
    expect(decode(gzip).equals(plain.body)).toBe(true);
    // an authenticated list too
    const dev = await p.register("DEVELOPER");
    const fetched = await new Promise<Raw>((resolve, reject) =>
      http
        .get(
          p.url + "/developer/apps",
          { headers: { Authorization: `Bearer ${dev.token}`, "Accept-Encoding": "gzip" } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        )
        .on("error", reject),
    );
    expect(fetched.status).toBe(200);
    // a tiny JSON body (under 1 KiB) is sent as it is
    expect(fetched.body.length).toBeLessThan(1024);
    expect(fetched.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(fetched.body.toString("utf8"))).toBeTruthy();
  });

  it("leaves tiny bodies as they are", async () => {
    const health = await raw(p.url + "/healthz", { "Accept-Encoding": "gzip, br" });
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(health.body.length).toBeLessThan(1024);
    expect(JSON.parse(health.body.toString("utf8"))).toMatchObject({ ok: true });
  });

  it("leaves an answer marked Cache-Control: no-transform as it is", async () => {
    const app = express();
    app.use(compress());
    const text = "a compressible line of text\n".repeat(400);
    app.get("/kept", (_req, res) => res.set("Cache-Control", "public, no-transform").type("text/html").send(text));
    app.get("/packed", (_req, res) => res.type("text/html").send(text));
    const server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const kept = await raw(base + "/kept", { "Accept-Encoding": "gzip, br" });
      expect(kept.headers["content-encoding"]).toBeUndefined();
      expect(kept.body.toString("utf8")).toBe(text);
      const packed = await raw(base + "/packed", { "Accept-Encoding": "gzip" });
      expect(packed.headers["content-encoding"]).toBe("gzip");
      expect(decode(packed).toString("utf8")).toBe(text);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("the CSRF token in compressed pages", () => {
  it("is masked differently in every response; each masked form is accepted, a changed one refused", async () => {
    const browser = new BrowserSession(p.url);
    await browser.get("/login");
    const first = browser.csrf;
    await browser.get("/login");
    const second = browser.csrf;
    expect(first).not.toBe(second);
    // a wrong password is a 400 (the token passed); a forged token is a 403
    for (const token of [first, second]) {
      browser.csrf = token;
      const answer = await browser.post("/login", { email: "nobody@example.test", password: "wrong password 1" });
      expect(answer.status, answer.html.slice(0, 200)).not.toBe(403);
    }
    browser.csrf = tamper(first);
    expect((await browser.post("/login", { email: "nobody@example.test", password: "wrong password 1" })).status).toBe(
      403,
    );
  });
});
