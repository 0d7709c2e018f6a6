/**
 * The registry of API versions (contract 12, issue 32, decision 041): each version's date, the
 * sentences of its changes (each with the anchor the changelog links) and, from the dates, its
 * status at a given moment. No server code: the portal's pages (changelog, app settings, API
 * health) read it in the browser too. The transforms that keep older versions alive are declared
 * beside the operations (`app-api/version-changes.ts`), keyed by the same anchors.
 */

/** A change of a version: one sentence, and the anchor of its entry in the changelog. */
export type ChangeNote = { anchor: string; summary: string; details?: string };
export type VersionEntry = {
  version: string;
  /** The day it was released (UTC midnight). */
  releasedAt: string;
  changes: ChangeNote[];
};

/** Oldest first. A new version is added at the end, with its changes' sentences. */
export const VERSIONS: readonly VersionEntry[] = [
  {
    version: "2026-11-21",
    releasedAt: "2026-11-21",
    changes: [
      {
        anchor: "first-dated-version",
        summary:
          "The first dated version: the App API, webhooks and hook calls as contract sections 1-11 describe them, money as major-unit numbers (6.5 for $6.50, 650 for ¥650).",
      },
    ],
  },
  {
    version: "2026-11-27",
    releasedAt: "2026-11-27",
    changes: [
      {
        anchor: "money-as-objects",
        summary:
          'Every money field of the App API, webhooks and hook calls is an object {amount, currency}: an integer in the currency\'s minor units and its ISO 4217 code (USD 6.50 is {amount: 650, currency: "USD"}, JPY 650 is {amount: 650, currency: "JPY"}).',
        details:
          "Answers: products' price; orders' subtotal, discount, deliveryFee, amount and items[].price (also in the answers of status changes and payment reports); the dashboard's revenue figures and averageOrderValue. Webhooks: order.created's amount and deliveryFee, payment.completed's and payment.expired's amount, product.created's and product.updated's price. Hook calls: subtotal, builtInFee, promoDiscount, deliveryFee and create_payment's amount (a string of minor units before); the answers' fee (checkout.shipping_rates) and discount (order.calculate_discounts) are {amount, currency} too, in the order's currency.",
      },
      {
        anchor: "delivery-api-version",
        summary:
          "Each delivery of GET /webhooks/{id}/deliveries names the API version its body was rendered in (apiVersion).",
      },
    ],
  },
];

/** A version stays supported for at least this many months after the next one is released. */
export const SUPPORT_MONTHS = 12;
/** It is DEPRECATED (warned about on every answer) during its last months before the sunset. */
export const DEPRECATED_MONTHS = 6;

export type VersionStatus = "CURRENT" | "SUPPORTED" | "DEPRECATED";
export type VersionState = {
  version: string;
  releasedAt: Date;
  status: VersionStatus | "SUNSET";
  deprecatedAt?: Date;
  sunsetAt?: Date;
};

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const addMonths = (d: Date, months: number) => {
  const t = new Date(d);
  t.setUTCMonth(t.getUTCMonth() + months);
  return t;
};

export const NEWEST_VERSION = VERSIONS[VERSIONS.length - 1].version;
export const OLDEST_VERSION = VERSIONS[0].version;
export const isKnownVersion = (v: string) => VERSIONS.some((e) => e.version === v);
/** Position of a version in the registry (oldest 0); -1 for an unknown one. */
export const versionIndex = (v: string) => VERSIONS.findIndex((e) => e.version === v);

/** Each version's dates, worked out once from the registry (statuses are then comparisons with the clock). */
const SCHEDULE = VERSIONS.map((e, i) => {
  const next = VERSIONS[i + 1];
  const sunsetAt = next ? addMonths(day(next.releasedAt), SUPPORT_MONTHS) : undefined;
  return {
    version: e.version,
    releasedAt: day(e.releasedAt),
    sunsetAt,
    deprecatedAt: sunsetAt ? addMonths(sunsetAt, -DEPRECATED_MONTHS) : undefined,
  };
});

/** Every instant at which some version's state changes, ascending: between two of them the states are the same. */
const CHANGES = [
  ...new Set(
    SCHEDULE.flatMap((e) => [e.releasedAt, e.deprecatedAt, e.sunsetAt]).flatMap((d) => (d ? [d.getTime()] : [])),
  ),
].sort((a, b) => a - b);

/** The last answer and the span of time [from, until) it holds for: every App API call asks, a few times. */
let lastStates: { from: number; until: number; states: VersionState[] } | null = null;

/**
 * The state of every released version at `at`, oldest first (versions released after `at` are left
 * out). Worked out once for each span between two changes of the schedule, not on every call (a
 * sandbox at another date gets its own span); callers must not change the answer.
 */
export function versionStates(at: Date): VersionState[] {
  const t = at.getTime();
  if (lastStates && t >= lastStates.from && t < lastStates.until) return lastStates.states;
  const states = statesAt(t);
  // the first change after t (none: past every change); the span runs from the one before it
  const found = CHANGES.findIndex((c) => c > t);
  const next = found === -1 ? CHANGES.length : found;
  lastStates = {
    from: next > 0 ? CHANGES[next - 1] : -Infinity,
    until: next < CHANGES.length ? CHANGES[next] : Infinity,
    states,
  };
  return states;
}

/** The states worked out afresh (versionStates keeps the last answer; the tests compare the two). */
export function statesAt(t: number): VersionState[] {
  const released = SCHEDULE.filter((e) => e.releasedAt.getTime() <= t);
  return released.map((e, i) => {
    // the newest released version is current, even if a later one is registered for a future day
    if (i === released.length - 1) return { version: e.version, releasedAt: e.releasedAt, status: "CURRENT" };
    const status = t >= e.sunsetAt!.getTime() ? "SUNSET" : t >= e.deprecatedAt!.getTime() ? "DEPRECATED" : "SUPPORTED";
    return { version: e.version, releasedAt: e.releasedAt, status, deprecatedAt: e.deprecatedAt, sunsetAt: e.sunsetAt };
  });
}

/** The state of one version at `at`; undefined for a version the registry does not know (or not yet released). */
export function versionState(version: string, at: Date): VersionState | undefined {
  return versionStates(at).find((s) => s.version === version);
}

/** The current version at `at`: the newest released one. */
export function currentVersion(at: Date): string {
  const states = versionStates(at);
  return (states[states.length - 1] ?? { version: OLDEST_VERSION }).version;
}

/** The versions one may use at `at` (not past their sunset), oldest first. */
export function supportedVersions(at: Date): VersionState[] {
  return versionStates(at).filter((s) => s.status !== "SUNSET");
}

/** `GET /app-api/versions`'s answer. */
export function versionsAnswer(at: Date) {
  const supported = supportedVersions(at);
  return {
    current: currentVersion(at),
    supported: supported
      .slice()
      .reverse()
      .map((s) => ({
        version: s.version,
        releasedAt: s.releasedAt.toISOString(),
        status: s.status as VersionStatus,
        ...(s.sunsetAt ? { sunsetAt: s.sunsetAt.toISOString() } : {}),
      })),
  };
}

/** "2026-11-21, 2026-11-27": the supported versions, for messages. */
export const supportedList = (at: Date) =>
  supportedVersions(at)
    .map((s) => s.version)
    .join(", ");

/**
 * The changes a move from `from` to `to` crosses, each with the version it belongs to: upgrading,
 * the changes of every version after `from` up to `to`; downgrading, the same list the other way
 * (each then undone).
 */
export function changesBetween(from: string, to: string): { version: string; change: ChangeNote }[] {
  const a = versionIndex(from);
  const b = versionIndex(to);
  if (a < 0 || b < 0 || a === b) return [];
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return VERSIONS.slice(lo + 1, hi + 1).flatMap((e) => e.changes.map((change) => ({ version: e.version, change })));
}

/** The changelog's address of a change (the portal's docs page). */
export const changelogPath = (version?: string, anchor?: string) =>
  `/portal/docs/changelog${anchor ? `#${anchor}` : version ? `#v${version}` : ""}`;

/**
 * The version a webhook or hook call to an app pinned to `pinned` is rendered in at `at` (decision
 * 041): its pin while that is supported; past the sunset (or a pin the registry does not know), the
 * oldest supported version, which the envelope's `apiVersion` and the `Api-Version` header name.
 */
export function renderVersion(pinned: string, at: Date): string {
  const state = versionState(pinned, at);
  if (state && state.status !== "SUNSET") return pinned;
  return supportedVersions(at)[0]?.version ?? NEWEST_VERSION;
}
