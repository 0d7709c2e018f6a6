import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { resetSandboxClock } from "~/platform/devtools/clock.server";
import { SandboxClock } from "~/platform/devtools/schemas";

/** Back to the platform's time for new objects (contract 19); what happened keeps its dates. */
export const { loader, action, declared } = platformRoute("/developer/sandbox/clock/reset", "DEVELOPER", {
  POST: operation({
    summary: "Set the sandbox's clock back to the platform's time for what happens next",
    answer: { status: 200, schema: SandboxClock },
    errors: [404],
    handler: async ({ context, user }) => resetSandboxClock(context.db, user.business),
  }),
});
