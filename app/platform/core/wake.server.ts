/**
 * Wake-ups after a commit, for work a transaction wrote without a NOTIFY of its own (PostgreSQL
 * orders every committing transaction that notifies behind one lock held through its commit's
 * flush, so a hot statement such as the checkout's order must not notify: decision 019, 087).
 *
 * A waker has a channel: this process's own listeners (registered with `onLocal`) are called at
 * once; a process without one (a web process of its own) sends a NOTIFY on the channel instead, in
 * a statement of its own (no transaction ID, no WAL: it holds the notification lock only for
 * itself, never through a flush). Coalesced: at most one NOTIFY in flight, one more after it for
 * whatever came meanwhile. A lost wake-up costs at most the listeners' own poll.
 */
import type { Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";

export type Waker = {
  channel: string;
  /** Wakes this process's listeners, or every worker's through a NOTIFY. */
  wake(db: Db): void;
  /** Registers a listener of this process; returns its removal. */
  onLocal(wake: () => void): () => void;
};

export function createWaker(channel: string): Waker {
  // on globalThis: the Remix bundle and the worker load this module apart in one process
  const registry = ((globalThis as { __localWakers?: Map<string, Set<() => void>> }).__localWakers ??= new Map());
  let local = registry.get(channel);
  if (!local) registry.set(channel, (local = new Set()));
  const listeners = local;
  let notifying = false;
  let notifyAgain = false;
  const wake = (db: Db) => {
    for (const w of listeners) w();
    // a process that runs a listener itself (npm start) needs no NOTIFY: its own takes the work at
    // once, other workers still find anything left within their poll
    if (listeners.size > 0) return;
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = true;
    rawQuery(db, `select pg_notify('${channel}', '')`, [])
      .catch(() => {})
      .finally(() => {
        notifying = false;
        if (notifyAgain) {
          notifyAgain = false;
          wake(db);
        }
      });
  };
  return {
    channel,
    wake,
    onLocal(w) {
      listeners.add(w);
      return () => listeners.delete(w);
    },
  };
}
