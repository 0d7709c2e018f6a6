/**
 * Many identical (or near-identical) requests at once against the real server, and the outcome set
 * they must add up to: for instance exactly one 201 and N-1 409, or N x 201 with distinct slugs;
 * never a 5xx. Used by `security/concurrency.test.ts`, one test per path with a uniqueness or
 * "only one" rule (docs/reliability.md, "Concurrency").
 */
import { expect } from "vitest";

/**
 * Starts `n` calls of `send` together: every call is made before any answer is awaited (they wait on
 * one gate, opened once all are queued), so the server sees them at the same moment.
 */
export async function atOnce<T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const calls = Array.from({ length: n }, (_, i) => gate.then(() => send(i)));
  open();
  return Promise.all(calls);
}

/** How many answers had each status: `{ 201: 1, 409: 19 }`. */
export function statusCounts(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/**
 * Asserts the outcome set exactly (`{ 201: 1, 409: 19 }`), that no answer is a 5xx, and, for the
 * statuses named in `messages`, that every such answer says what it should (the field that collided).
 */
export function expectOutcome(
  answers: { status: number; json?: any; text?: string }[],
  expected: Record<number, number>,
  options: { what?: string; messages?: Record<number, RegExp> } = {},
) {
  const what = options.what ?? "outcome";
  const fiveHundreds = answers.filter((a) => a.status >= 500);
  expect(
    fiveHundreds.map((a) => `${a.status} ${a.text ?? JSON.stringify(a.json)}`.slice(0, 300)),
    `${what}: no 5xx`,
  ).toEqual([]);
  expect(statusCounts(answers), what).toEqual(expected);
  for (const [status, pattern] of Object.entries(options.messages ?? {}))
    for (const a of answers.filter((x) => x.status === Number(status)))
      expect(a.json?.message ?? a.text ?? "", `${what}: ${status} message`).toMatch(pattern);
}
