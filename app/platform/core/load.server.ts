/**
 * How busy this process's web server is: the requests it started in the last second, counted in ten
 * buckets of 100 ms. Background work that shares the process (`npm start` runs web and worker
 * together) reads it to give way to people waiting for an answer: the mail dispatcher holds a
 * sale's e-mails back while the checkout is busy (decision 089). A worker process of its own serves
 * no requests and is never busy by this measure.
 */
const BUCKET_MS = 100;
const BUCKETS = 10;

type Meter = { counts: number[]; stamps: number[] };

// on globalThis: the Remix bundle and the worker load this module apart in one process
const meter = ((globalThis as { __webLoad?: Meter }).__webLoad ??= {
  counts: new Array(BUCKETS).fill(0),
  stamps: new Array(BUCKETS).fill(-1),
});

/** Counts one request the web server started (its first middleware). */
export function noteRequest(at = Date.now()): void {
  const slot = Math.floor(at / BUCKET_MS);
  const i = slot % BUCKETS;
  if (meter.stamps[i] !== slot) {
    meter.stamps[i] = slot;
    meter.counts[i] = 0;
  }
  meter.counts[i]++;
}

/** Requests started in the last second (the current bucket and the nine before it). */
export function requestsLastSecond(at = Date.now()): number {
  const slot = Math.floor(at / BUCKET_MS);
  let n = 0;
  for (let i = 0; i < BUCKETS; i++) if (meter.stamps[i] > slot - BUCKETS) n += meter.counts[i];
  return n;
}
