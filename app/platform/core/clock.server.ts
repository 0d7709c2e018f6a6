/**
 * The one clock. Every module reads the time from now(); tests move it with setClockOffset so that
 * retry delays, the 48-hour erasure, 30-day analytics and rate-limit windows are tested without
 * waiting. The offset lives on globalThis so that the Remix build and the source modules loaded by
 * the worker (two copies of this module in one process) agree.
 */
const KEY = Symbol.for("app-platform.clock");
type ClockState = { offsetMs: number };
const state = (): ClockState => {
  const g = globalThis as unknown as Record<symbol, ClockState>;
  return (g[KEY] ??= { offsetMs: 0 });
};

export function now(): Date {
  return new Date(Date.now() + state().offsetMs);
}

export function nowMs(): number {
  return Date.now() + state().offsetMs;
}

/** Moves the clock by ms (tests only). */
export function advanceClock(ms: number) {
  state().offsetMs += ms;
}

export function setClockOffset(ms: number) {
  state().offsetMs = ms;
}
