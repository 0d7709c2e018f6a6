import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";

/**
 * `storefront-apps listen` (decision 023): a developer's CLI connected to GET
 * /developer/apps/<id>/listen. While one is fresh (heartbeat within LISTENER_STALE_MS), the
 * webhook deliveries and hook calls of that app's TEST installations are relayed to it instead
 * of being POSTed to the app's URLs.
 */
export const appListeners = pgTable(
  "app_listeners",
  {
    id: id(),
    appId: text("app_id").notNull(),
    accountId: text("account_id").notNull(),
    heartbeatAt: ts("heartbeat_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("app_listeners_app_idx").on(t.appId, t.heartbeatAt)],
);

export const RELAY_STATUSES = ["PENDING", "SENT", "ANSWERED"] as const;

/** One relayed call: written by the sender (worker or web), streamed by the web process holding the listener, answered by the CLI. */
export const relayCalls = pgTable(
  "relay_calls",
  {
    id: id(),
    appId: text("app_id").notNull(),
    kind: text("kind", { enum: ["webhook", "hook"] }).notNull(),
    /** hook calls: the hook's path, appended to the --forward-to URL; webhooks: "" */
    path: text("path").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: RELAY_STATUSES }).notNull().default("PENDING"),
    answerStatus: integer("answer_status"),
    answerBody: text("answer_body"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("relay_calls_app_idx").on(t.appId, t.status)],
);
