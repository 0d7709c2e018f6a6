/** `storefront-apps events resend <deliveryId>`: a past delivery of the current app sent again (contract 19). */
import { api, appIdOf, CliError, out, readConfig, type Flags } from "../shared.ts";

export async function events(sub: string | undefined, deliveryId: string | undefined, flags: Flags) {
  if (sub !== "resend" || !deliveryId) throw new CliError("events resend <deliveryId>");
  const config = readConfig();
  const id = appIdOf(flags, config);
  const r = await api(
    config,
    "POST",
    `/developer/apps/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
  );
  out(`Delivery ${r.id} queued again: the same body and event id, a new attempt.`);
}
