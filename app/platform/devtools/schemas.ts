/** The shapes of the developer tools' JSON API (contract 19): the sandbox's clock, releases, trigger overrides. */
import { z } from "zod";

const iso = z.string().describe("ISO 8601 time");

export const SandboxClock = z
  .object({
    now: iso.describe("the sandbox's date and time"),
    offsetSeconds: z.number().int().describe("how far the sandbox's clock runs ahead of the platform's"),
    happened: z
      .array(
        z.object({
          at: iso,
          kind: z.enum(["SUBSCRIPTION_EXPIRED", "PERIOD_CLOSED", "TRIAL_ENDED", "DATA_ERASURE_SENT"]),
          id: z.string().describe("the subscription's or installation's id"),
        }),
      )
      .optional()
      .describe("after an advance: what fell due, in order"),
  })
  .meta({ id: "SandboxClock" });
