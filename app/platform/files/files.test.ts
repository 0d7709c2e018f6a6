/**
 * Image uploads (contract 20, decision 060) against the real server: POST /merchant/files
 * recognises PNG, JPEG, WebP and GIF by their bytes and refuses anything else (an SVG, an HTML page
 * named .png, a file over 5 MB) with 400; the stored file is served from the storefront origin with
 * its content type, nosniff and an immutable cache; one business cannot read another's file record.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { gifHeader, jpegHeader, pngImage, webpHeader } from "../testing/images";
import { sniffImage } from "./image-sniff";
import { MAX_IMAGE_BYTES } from "./files.server";
import { files } from "../../../db/schema";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const other = await p.register("MERCHANT");

/** POST /merchant/files with one multipart field `file` (its name and declared type as a browser would send them). */
async function upload(token: string | null, bytes: Uint8Array, name = "picture.png", type = "image/png") {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${p.url}/merchant/files`, {
    method: "POST",
    body: form,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers };
}

describe("sniffImage: what the bytes are, never the name", () => {
  it("reads the type and size of PNG, JPEG, GIF and WebP headers", () => {
    expect(sniffImage(pngImage(3, 2))).toEqual({ contentType: "image/png", width: 3, height: 2 });
    expect(sniffImage(jpegHeader(640, 480))).toEqual({ contentType: "image/jpeg", width: 640, height: 480 });
    expect(sniffImage(gifHeader(16, 9))).toEqual({ contentType: "image/gif", width: 16, height: 9 });
    expect(sniffImage(webpHeader(1200, 800))).toEqual({ contentType: "image/webp", width: 1200, height: 800 });
  });

  it("knows nothing else: SVG, HTML, text, a signature without its header, a zero-sized picture", () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    expect(sniffImage(svg)).toBeNull();
    expect(sniffImage(html)).toBeNull();
    expect(sniffImage(Buffer.from("hello"))).toBeNull();
    expect(sniffImage(pngImage(3, 2).subarray(0, 20))).toBeNull();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(sniffImage(gifHeader(0, 10))).toBeNull();
  });
});

describe("POST /merchant/files", () => {
  it("stores a PNG and answers 201 with its address on the storefront origin, type, size and dimensions", async () => {
    const png = pngImage(4, 3);
    const res = await upload(merchant.token, png);
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(/^file_/),
      url: `${p.storefrontUrl}/files/${res.json.id}.png`,
      contentType: "image/png",
      size: png.length,
      width: 4,
      height: 3,
    });
    const [row] = await p.db.select().from(files).where(eq(files.id, res.json.id));
    expect(row.businessId).toBe(merchant.businessId);
    expect(row.filename).toBe("picture.png");
  });

  it("serves the file from the storefront origin: its bytes, image/png, nosniff, a year's immutable cache; the platform origin moves it there", async () => {
    const png = pngImage(5, 5, [200, 30, 30]);
    const { json } = await upload(merchant.token, png);
    const got = await fetch(json.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(got.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    expect(got.headers.get("set-cookie")).toBeNull();

    const onPlatform = await fetch(`${p.url}/files/${json.id}.png`, { redirect: "manual" });
    expect(onPlatform.status).toBe(308);
    expect(onPlatform.headers.get("location")).toBe(json.url);

    // another extension, or an unknown id: 404
    expect((await fetch(`${p.storefrontUrl}/files/${json.id}.gif`)).status).toBe(404);
    expect((await fetch(`${p.storefrontUrl}/files/file_nothere.png`)).status).toBe(404);
  });

  it("takes JPEG, GIF and WebP by their content, whatever name and type the browser gave", async () => {
    const jpeg = await upload(merchant.token, jpegHeader(800, 600), "photo.bin", "application/octet-stream");
    expect(jpeg.status, jpeg.text).toBe(201);
    expect(jpeg.json).toMatchObject({ contentType: "image/jpeg", width: 800, height: 600 });
    expect(jpeg.json.url).toMatch(/\.jpg$/);
    const served = await fetch(jpeg.json.url);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const gif = await upload(merchant.token, gifHeader(10, 20), "a.png", "image/png");
    expect(gif.json).toMatchObject({ contentType: "image/gif", width: 10, height: 20 });
    const webp = await upload(merchant.token, webpHeader(300, 200), "b.webp", "image/webp");
    expect(webp.json).toMatchObject({ contentType: "image/webp", width: 300, height: 200 });
  });

  it("refuses an SVG, an HTML page named .png, an empty file and a picture over 25 megapixels with 400", async () => {
    const svg = await upload(
      merchant.token,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      "logo.svg",
      "image/svg+xml",
    );
    expect(svg.status).toBe(400);
    expect(svg.json).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: expect.stringContaining("must be a PNG, JPEG, WebP or GIF"),
    });
    const html = await upload(merchant.token, Buffer.from("<!doctype html><h1>hi</h1>"), "cat.png", "image/png");
    expect(html.status).toBe(400);
    expect(html.json.message).toContain("must be a PNG, JPEG, WebP or GIF");
    const empty = await upload(merchant.token, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.json.message).toContain("empty");
    const huge = await upload(merchant.token, gifHeader(10_000, 10_000), "huge.gif", "image/gif");
    expect(huge.status).toBe(400);
    expect(huge.json.message).toContain("25 megapixels");
    const count =
      await p.sql`select count(*)::int as n from files where filename in ('logo.svg', 'cat.png', 'huge.gif')`;
    expect(count[0].n).toBe(0);
  });

  it("refuses a file over 5 MB with 400, just over and far over the limit, and takes one of exactly 5 MB", async () => {
    const base = pngImage(2, 2, [1, 2, 3]);
    const exactly = await upload(merchant.token, pngImage(2, 2, [1, 2, 3], MAX_IMAGE_BYTES - base.length));
    expect(exactly.status, exactly.text).toBe(201);
    expect(exactly.json.size).toBe(MAX_IMAGE_BYTES);
    const justOver = await upload(merchant.token, pngImage(2, 2, [1, 2, 3], MAX_IMAGE_BYTES - base.length + 1));
    expect(justOver.status).toBe(400);
    expect(justOver.json.message).toMatch(/at most 5 MB/);
    const farOver = await upload(merchant.token, pngImage(2, 2, [1, 2, 3], 8 * 1024 * 1024));
    expect(farOver.status).toBe(400);
    expect(farOver.json.message).toMatch(/at most 5 MB/);
  });

  it("refuses a body that is not multipart, or has no file, with 400; no token is 401", async () => {
    const json = await p.request("POST", "/merchant/files", { token: merchant.token, body: { file: "x" } });
    expect(json.status).toBe(400);
    const form = new FormData();
    form.set("picture", "not a file");
    const noFile = await fetch(`${p.url}/merchant/files`, {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${merchant.token}` },
    });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { message: string }).message).toContain("file");
    expect((await upload(null, pngImage(1, 1))).status).toBe(401);
  });

  it("keeps each business's files to itself: GET /merchant/files/<id> of another business is 404", async () => {
    const mine = await upload(merchant.token, pngImage(2, 2));
    const own = await p.request("GET", `/merchant/files/${mine.json.id}`, { token: merchant.token });
    expect(own.status).toBe(200);
    expect(own.json).toEqual(mine.json);
    const theirs = await p.request("GET", `/merchant/files/${mine.json.id}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ statusCode: 404, error: "Not Found", message: "File not found" });
  });
});
