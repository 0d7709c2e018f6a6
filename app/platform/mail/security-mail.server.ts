/**
 * The account's security notices (contract 18): a sign-in from a device the account never used, and
 * every change of its second factors. Always sent, written in the transaction of their cause (one
 * cause, one message), each with a link that ends the session that caused it.
 */
import type { Db } from "../../../db/client";
import type { Account } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { queueMail } from "./queue.server";

export type SecurityNotice =
  | { event: "new_device"; sessionId: string; device: string; ip: string }
  | {
      event: "second_factor";
      change:
        | "totp_enrolled"
        | "totp_removed"
        | "recovery_codes_regenerated"
        | "recovery_code_used"
        | "passkey_added"
        | "passkey_removed";
      sessionId: string | null;
      detail?: string;
    };

export async function queueSecurityNotice(tx: Db, account: Pick<Account, "id" | "email" | "name">, n: SecurityNotice) {
  const at = now().toISOString();
  if (n.event === "new_device")
    return queueMail(tx, {
      kind: "account.new_sign_in",
      causeKey: `account.new_sign_in:${n.sessionId}`,
      to: { address: account.email, name: account.name },
      accountId: account.id,
      data: { sessionId: n.sessionId, device: n.device, ip: n.ip, at },
    });
  return queueMail(tx, {
    kind: "account.second_factor_changed",
    causeKey: `account.second_factor_changed:${newId("sfc")}`,
    to: { address: account.email, name: account.name },
    accountId: account.id,
    data: { change: n.change, sessionId: n.sessionId, detail: n.detail ?? "", at },
  });
}
