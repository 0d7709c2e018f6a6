/** What `fn` gives once it gives something (polled every 100 ms), or an error naming `what()` after `ms`. */
export async function until<T>(what: () => string, fn: () => T | undefined | Promise<T | undefined>, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
