/**
 * Stopping the worker while jobs are finishing (B2e's sale stopped with hundreds of e-mails still
 * sending): every job it ran is recorded as done before `stop()` returns, and no completion fails
 * afterwards on the ended pool (graphile-worker did not await an unbatched completion: one still
 * waiting for a pool connection at stop failed 5 s later, an unhandled rejection, its job locked).
 */
import { afterAll, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { startWorker } from "./worker";

const p = await startPlatform({ worker: false });
const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);
process.on("unhandledRejection", onRejection);
afterAll(() => {
  process.off("unhandledRejection", onRejection);
});

const count = async (where: ReturnType<typeof sql>) =>
  (await p.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where ${where}`))[0].n;

it("records every job it ran before stop() returns, and nothing fails after", async () => {
  for (let round = 0; round < 4; round++) {
    // cheap jobs (a message that is not there: one update, answered GONE), many finishing at once
    await p.db.execute(
      sql`select graphile_worker.add_job('mail__send', json_build_object('id', 'msg_missing_' || g)) from generate_series(1, 400) g`,
    );
    const worker = await startWorker({
      url: p.dbUrl,
      deps: { db: p.db, env: p.env, mailUrl: "smtp://127.0.0.1:9" },
      concurrency: 16,
    });
    // (a mail URL of its own: no development mailbox to stop between the runner and the pool)
    // stop while completions are streaming in
    while ((await count(sql`true`)) > 300) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect(await count(sql`locked_at is not null`)).toBe(0);
    await p.db.execute(sql`select graphile_worker.remove_job(id::text) from graphile_worker.jobs`);
  }
  // a completion left waiting for a connection of the ended pool gives up after its 5 s timeout
  await new Promise((r) => setTimeout(r, 5_500));
  expect(rejections).toEqual([]);
}, 120_000);
