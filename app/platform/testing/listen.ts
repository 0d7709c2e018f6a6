/**
 * Starts a test's own HTTP server (a webhook receiver, an app backend, an OAuth callback) on
 * 127.0.0.1 at a free port and answers its base URL, `http://127.0.0.1:<port>`. Shared by the
 * vitest receivers, the Playwright specs' app servers and the benchmarks; free of vitest and
 * Playwright, so that each of them may import it.
 */
import type { Server } from "node:http";

export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}
