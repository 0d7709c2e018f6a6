/**
 * A real HTTP receiver on 127.0.0.1 for webhook and hook tests: records every request (raw body,
 * headers, time) and answers as the test says (status, delay, body), per call. Every delivery and
 * hook call it receives is checked against its declared schema (testing/payload-check.ts); a
 * request that does not match fails the test file when the receiver closes (`violations` lists them).
 */
import http from "node:http";
import { afterAll } from "vitest";
import { listenLocally } from "./listen";
import { checkPlatformRequest } from "./payload-check";

export type Received = {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: any;
  at: number;
};
export type Behaviour = { status?: number; delayMs?: number; body?: string; headers?: Record<string, string> };

export async function startReceiver(initial: Behaviour | ((req: Received, n: number) => Behaviour) = { status: 200 }) {
  const received: Received[] = [];
  /** Deliveries and hook calls that did not match their declared schema. */
  const violations: string[] = [];
  let behave = typeof initial === "function" ? initial : () => initial;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let json: any = null;
      try {
        json = JSON.parse(raw);
      } catch {
        json = null;
      }
      const entry: Received = {
        path: req.url ?? "/",
        method: req.method ?? "",
        headers: req.headers,
        raw,
        json,
        at: Date.now(),
      };
      received.push(entry);
      violations.push(...(checkPlatformRequest(req.headers, raw) ?? []));
      const b = behave(entry, received.length);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(b.status ?? 200, { "Content-Type": "application/json", ...(b.headers ?? {}) });
        res.end(b.body ?? "{}");
      };
      if (b.delayMs) setTimeout(answer, b.delayMs);
      else answer();
      for (const w of [...waiters])
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    });
  });
  server.keepAliveTimeout = 1;
  const url = await listenLocally(server);
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  afterAll(async () => {
    await close();
    if (violations.length)
      throw new Error(`the platform sent requests that do not match their declared schemas:\n${violations.join("\n")}`);
  });
  return {
    url,
    received,
    violations,
    set(b: Behaviour | ((req: Received, n: number) => Behaviour)) {
      behave = typeof b === "function" ? b : () => b;
    },
    /** Resolves when at least `count` requests have arrived. */
    waitFor(count: number, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`waited for ${count} requests, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close,
  };
}

/** Polls until the check passes. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      last = e;
      if (Date.now() > deadline) throw last;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
