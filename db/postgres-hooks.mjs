/**
 * A Node module hook that patches postgres.js 3.4.x's connection.js as it is loaded (registered by
 * db/postgres-fix.ts). Why (docs/reliability.md, "The reconnect hang"): when a connection's socket
 * closes, 3.4.9 cancels a batched write (`clearImmediate(nextWriteTimer)`) without forgetting it,
 * and a query given to a closed connection (the ROLLBACK that `sql.begin` sends after its connection
 * died) is batched onto a null socket, whose flush throws a TypeError before it forgets the timer.
 * Either way `nextWriteTimer` stays set, so no later write is ever flushed: the connection's next
 * start-up message is never sent, and every query that opens that connection waits for
 * CONNECT_TIMEOUT (30 s by default), for the life of the process. The patch forgets the batch when
 * the socket closes, refuses queries on a closed connection (CONNECTION_CLOSED), and never writes
 * to a null socket. Each replacement must apply exactly as written; if an upgrade changed the
 * text, the hook says so on stderr and leaves the file alone (the upgrade may carry the fix).
 */
const FIXES = [
  // 1. forget the batched write (and its bytes) whenever the socket goes away
  [
    /^(\s*)clearImmediate\(nextWriteTimer\)$/gm,
    "$1clearImmediate(nextWriteTimer), nextWriteTimer = null, chunk = null",
    2,
  ],
  // 2. a query for a connection whose socket has closed fails at once instead of being batched (and
  //    the connection is not reported full: the pool must keep it among the closed ones to reopen)
  [
    "    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n",
    "    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n\n    if (!socket)\n      return queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true\n",
    1,
  ],
  // 3. a closed connection forgets the query it had running (rejected just above): otherwise the next
  //    start-up's ReadyForQuery "resolves" that stale query and the connection's state goes astray;
  //    and it forgets the server's error it was keeping for that query's ReadyForQuery (a FATAL such as
  //    57P01 arrives, then the socket closes with no ReadyForQuery): otherwise the next start-up's
  //    ReadyForQuery hands that stale error to the query that reopened the connection (the residual
  //    defect of docs/reliability.md, issue 34)
  [
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    query && queryError(query, Errors.connection('CONNECTION_CLOSED', options))\n    query = null\n    errorResponse = null\n",
    1,
  ],
  // 4. a closed connection answers every statement still waiting in its pipeline (`sent`): after a
  //    socket error (ECONNRESET), `error()` has rejected those it held, but a statement queued after it
  //    and before the close (the ROLLBACK of the transaction the error ended) stayed, and the reopened
  //    connection took that stale statement as the answer it was waiting for: its next query never
  //    answered and the connection was lost to the pool (docs/reliability.md, "The failover hang")
  [
    "    if (initial)\n      return reconnect()\n",
    "    while (sent.length)\n      queryError(sent.shift(), Errors.connection('CONNECTION_CLOSED', options))\n\n    if (initial)\n      return reconnect()\n",
    1,
  ],
  // 5. never write to a null socket (and always forget the batch)
  ["    const x = socket.write(chunk, fn)\n", "    const x = socket ? socket.write(chunk, fn) : false\n", 1],
  // 6. a transaction's BEGIN reserves its connection whatever the pipeline's depth: the reservation
  //    (`onexecute`) was only made while the connection could take more statements, so with
  //    `max_pipeline: 0` (one statement at a time, what a pooler in transaction mode needs: db/client.ts)
  //    every `sql.begin` failed with UNSAFE_TRANSACTION. A statement with `onexecute` never leaves its
  //    connection open to others (its answer was always false), as before.
  [
    "        && sent.length < max_pipeline\n        && (!q.options.onexecute || q.options.onexecute(connection))\n",
    "        && (q.options.onexecute ? (q.options.onexecute(connection), false) : sent.length < max_pipeline)\n",
    1,
  ],
];

/**
 * index.js, the pool: a transaction whose connection closed must not send another statement. Before,
 * `sql.begin` rejected when its connection closed (`connection.onclose`), but the transaction's
 * function ran on, and its next statement (or the ROLLBACK after its error) went to
 * `connection.execute` on the same connection object, which by then the pool may have reopened for
 * another query: the statement was written onto the new session in the middle of its start-up,
 * outside any transaction (a statement of a failed transaction could commit on its own), and the
 * connection took it for its own: its answers were matched to the wrong queries from then on, and
 * the next query of a later transaction on that connection never answered (docs/reliability.md,
 * "The failover hang", issue 34).
 */
const INDEX_FIXES = [
  [
    "      , connection\n      , prepare = null\n",
    "      , connection\n      , closedWith = null\n      , prepare = null\n",
    1,
  ],
  [
    "        new Promise((_, reject) => connection.onclose = reject)\n",
    "        new Promise((_, reject) => connection.onclose = e => (closedWith = e, reject(e)))\n",
    1,
  ],
  [
    "        q.catch(e => uncaughtError || (uncaughtError = e))\n        c.queue === full\n",
    "        q.catch(e => uncaughtError || (uncaughtError = e))\n        if (closedWith)\n          return q.reject(closedWith)\n        c.queue === full\n",
    1,
  ],
];

const TARGET = /[\\/]node_modules[\\/]postgres[\\/](cjs[\\/])?src[\\/](connection|index)\.js$/;

function patchSource(source, fixes) {
  let text = source;
  for (const [pattern, replacement, expected] of fixes) {
    let count = 0;
    const next =
      typeof pattern === "string"
        ? text.split(pattern).join(((count = text.split(pattern).length - 1), replacement))
        : text.replace(pattern, (...m) => (count++, replacement.replace("$1", m[1])));
    if (count !== expected) return { text: source, patched: false };
    text = next;
  }
  return { text, patched: true };
}

export const patchConnectionSource = (source) => patchSource(source, FIXES);
export const patchIndexSource = (source) => patchSource(source, INDEX_FIXES);

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  const file = TARGET.exec(new URL(url).pathname)?.[2];
  if (!file || result.source == null) return result;
  // POSTGRES_FIX=connection-only leaves index.js as it is: how the failover hang's test was checked to fail
  if (file === "index" && process.env.POSTGRES_FIX === "connection-only") return result;
  const { text, patched } = (file === "index" ? patchIndexSource : patchConnectionSource)(String(result.source));
  if (!patched) {
    console.error(
      `[db] postgres.js: ${file}.js is not the text the reconnect patch expects (${url}); left as it is. See docs/reliability.md.`,
    );
    return result;
  }
  return { ...result, source: text };
}
