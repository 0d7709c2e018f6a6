/**
 * The one clock. Every module reads the time from now(); tests move it with setClockOffset so that
 * retry delays, the 48-hour erasure, 30-day analytics and rate-limit windows are tested without
 * waiting. The offset lives on globalThis so that the Remix build and the source modules loaded by
 * the worker (two copies of this module in one process) agree.
 *
 * A developer's sandbox has its own clock on top (contract 19, decision 076): code that acts for a
 * sandbox runs inside `atBusinessClock(offsetMs, fn)`, and every now() within it (its awaits
 * included: an AsyncLocalStorage scope) is that sandbox's time. Real businesses never run in a scope.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const KEY = Symbol.for("app-platform.clock");
type ClockState = { offsetMs: number; scopes: AsyncLocalStorage<BusinessClock> };
/** The scope of one business's clock; `offsetMs` may be set once the business is known (the App API's token). */
export type BusinessClock = { offsetMs: number };
const state = (): ClockState => {
  const g = globalThis as unknown as Record<symbol, ClockState>;
  return (g[KEY] ??= { offsetMs: 0, scopes: new AsyncLocalStorage() });
};

export function now(): Date {
  return new Date(nowMs());
}

export function nowMs(): number {
  const s = state();
  return Date.now() + s.offsetMs + (s.scopes.getStore()?.offsetMs ?? 0);
}

/** Moves the clock by ms (tests only). */
export function advanceClock(ms: number) {
  state().offsetMs += ms;
}

export function setClockOffset(ms: number) {
  state().offsetMs = ms;
}

/** Runs fn with now() ahead by offsetMs (a sandbox's clock); the scope object may be changed inside. */
export function atBusinessClock<T>(offsetMs: number, fn: (scope: BusinessClock) => T): T {
  const scope = { offsetMs };
  return state().scopes.run(scope, () => fn(scope));
}

/** The business's time: the platform's, plus a sandbox's own offset. */
export function businessNow(business: { clockOffsetSeconds: number }): Date {
  return new Date(Date.now() + state().offsetMs + business.clockOffsetSeconds * 1000);
}

/**
 * Inside the request's scope (opened for every request by the web server), the rest of the request
 * runs on this business's clock: a sandbox's own date; a real business's offset is always 0.
 */
export function enterBusinessClock(business: { clockOffsetSeconds: number; isSandbox: boolean } | null) {
  const scope = state().scopes.getStore();
  if (scope && business?.isSandbox) scope.offsetMs = business.clockOffsetSeconds * 1000;
}
