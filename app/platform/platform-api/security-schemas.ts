/** The answer schemas of contract 18's endpoints: second factors, sessions, the business's setting, the activity log. */
import { z } from "zod";
import { listOf } from "../shapes/api";
import { ACTIVITY_ACTIONS } from "../activity/activity.server";

export const TotpEnrolment = z
  .object({ secret: z.string().describe("base32, for manual entry"), otpauthUrl: z.string() })
  .meta({ id: "TotpEnrolment" });

export const RecoveryCodes = z
  .object({ recoveryCodes: z.array(z.string()).describe("10 single-use codes, shown this once") })
  .meta({ id: "RecoveryCodes" });

export const SignInSession = z
  .object({
    id: z.string(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    ip: z.string(),
    userAgent: z.string(),
    current: z.boolean(),
  })
  .meta({ id: "SignInSession" });
export const SignInSessionList = z.object({ data: z.array(SignInSession) }).meta({ id: "SignInSessionList" });
export const SessionsEnded = z.object({ ended: z.number().int() }).meta({ id: "SessionsEnded" });

export const MerchantSecurity = z.object({ requireSecondFactor: z.boolean() }).meta({ id: "MerchantSecurity" });

export const ActivityEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.object({
      type: z.enum(["ACCOUNT", "APP", "SYSTEM"]),
      id: z.string().nullable(),
      email: z.string().optional(),
    }),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string() }),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "ActivityEntry" });
export const ActivityList = listOf(ActivityEntry, "ActivityList");

const when = (what: string) =>
  z
    .string()
    .optional()
    .refine((s) => s === undefined || !Number.isNaN(Date.parse(s)), "must be an ISO 8601 date or time")
    .transform((s) => (s === undefined ? undefined : new Date(s)))
    .describe(what);

/** The filters of `GET …/activity` (contract 18). */
export const ActivityQuery = z.object({
  actor: z.string().max(254).optional().describe("An account's id or e-mail, an app's id, or SYSTEM"),
  action: z.enum(ACTIVITY_ACTIONS).optional().describe("One action"),
  from: when("Entries at or after this time"),
  to: when("Entries before this time"),
});
