/**
 * `GET /files/<id>.<ext>` on the storefront origin (decision 060): a merchant's uploaded image with
 * the content type read from its bytes at upload, `X-Content-Type-Options: nosniff` (set for every
 * answer by web.server.ts) and a year's immutable cache: a file never changes, a new picture is a
 * new file. A sandbox policy keeps the answer inert even if a browser were asked to render it as a
 * document.
 */
import type { RequestHandler } from "express";
import type { Database } from "../../../db/client";
import { fileByName } from "./files.server";

export function serveFile(db: Database, readDb?: Database): RequestHandler {
  return (req, res, next) => {
    const name = req.params.name ?? "";
    void (async () => {
      // a replica may not have a file written a moment ago: the primary is asked when it has none
      const file = (readDb ? await fileByName(readDb, name) : null) ?? (await fileByName(db, name));
      if (!file) {
        res.status(404).set("Cache-Control", "no-store").type("text/plain").send("No such file");
        return;
      }
      const etag = `"${file.id}"`;
      res.set({
        "Content-Type": file.contentType,
        "Content-Length": String(file.size),
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: etag,
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cross-Origin-Resource-Policy": "cross-origin",
      });
      if (req.headers["if-none-match"] === etag) {
        res.status(304).end();
        return;
      }
      res.status(200).end(req.method === "HEAD" ? undefined : file.data);
    })().catch(next);
  };
}
