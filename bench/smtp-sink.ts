/**
 * A mail server that accepts every message and keeps none, as a relay would take them, in a process
 * of its own (bench/lib.ts forks it): production settings need MAIL_URL, and the order path's
 * e-mails (contract 16) are sent for real, to a server outside the measured process as in production.
 * Sends its URL to the parent once listening; ends with the parent.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

const server = new SMTPServer({
  secure: false,
  hideSTARTTLS: true,
  authOptional: true,
  disabledCommands: ["AUTH"],
  logger: false,
  onData(stream, _session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => callback());
  },
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.server.address() as AddressInfo;
  process.send?.({ url: `smtp://127.0.0.1:${port}` });
});
process.on("disconnect", () => process.exit(0));
