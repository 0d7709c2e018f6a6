// A local server that verifies your test installation's webhooks with the SDK
// (docs/developers/getting-started.md, which shows it as receiver.mjs). Plain JavaScript:
//   WEBHOOK_SECRET=whsec_test_… node examples/webhook-receiver.mjs
import { createServer } from "node:http";
import { readRawBody, verifyWebhook, WebhookVerificationError } from "@storefront/app-sdk";

const secret = process.env.WEBHOOK_SECRET;
const port = Number(process.env.RECEIVER_PORT ?? 4000);
if (!secret) throw new Error("Set WEBHOOK_SECRET to the webhook secret `storefront-apps test-install` printed");

createServer(async (req, res) => {
  const raw = await readRawBody(req); // the exact bytes: the signature covers them
  try {
    const event = verifyWebhook(raw, req.headers, secret); // throws on a bad signature or a stale timestamp
    console.log(`verified ${event.event} ${event.id} ${JSON.stringify(event.data)}`);
    res.writeHead(200).end();
  } catch (e) {
    if (!(e instanceof WebhookVerificationError)) throw e;
    console.log(`refused: ${e.code} (${e.message})`);
    res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: e.code }));
  }
}).listen(port, () => console.log(`Receiving webhooks on http://localhost:${port}/webhooks`));
