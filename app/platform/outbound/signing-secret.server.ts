import { randomToken } from "../core/ids.server";

/** A new signing secret of a webhook registration (`whsec_test_` on a test installation). */
export const newWebhookSecret = (test: boolean) => `${test ? "whsec_test_" : "whsec_"}${randomToken(32)}`;
