import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { advanceSandboxClock, ClockAdvance, getSandboxClock } from "~/platform/devtools/clock.server";
import { SandboxClock } from "~/platform/devtools/schemas";

/** The sandbox's own clock (contract 19, decision 076): `storefront-apps clock` and `clock advance <days>`. */
export const { loader, action, declared } = platformRoute("/developer/sandbox/clock", "DEVELOPER", {
  GET: operation({
    summary: "The sandbox's date: the platform's time plus the sandbox's offset",
    answer: { status: 200, schema: SandboxClock },
    errors: [404],
    handler: async ({ context, user }) => getSandboxClock(context.db, user.business),
  }),
  POST: operation({
    summary: "Move the sandbox's clock forward (1-400 days) and make everything due by then happen, in order",
    description:
      "Pending subscription requests expire, test subscriptions' periods close into test invoices (never paid, never in earnings), trials end, uninstalled installations get business.data_erasure 48 hours after the uninstall, and the sandbox's installations' App API calls are answered as of the new date. Only the sandbox's own objects move.",
    body: ClockAdvance,
    answer: { status: 200, schema: SandboxClock },
    errors: [400, 404],
    handler: async ({ context, user, body }) => advanceSandboxClock(context.db, user.business, body.advanceDays),
  }),
});
