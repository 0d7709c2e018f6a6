/**
 * Checks what the platform sends apps against the declared schemas (decision 035): a webhook
 * delivery against its event's envelope (events/schemas.ts), a hook call against its hook point's
 * (hooks/schemas.ts), in the API version the request names (Api-Version), as the App API document publishes them (JSON Schema from the same zod
 * schemas, answers' shape: no field that is not declared, none missing). Every test receiver runs
 * it on each request it gets (testing/receiver.ts), so every delivery and hook call the suite
 * produces is checked.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { z } from "zod";
import { EVENT_ENVELOPES } from "../shapes/events";
import { HOOK_ENVELOPES } from "../shapes/hooks";
import { VERSIONING } from "../versions/changes";
import { isKnownVersion, NEWEST_VERSION } from "../versions/registry";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<z.ZodType, Map<string, ReturnType<typeof ajv.compile>>>();
/**
 * The validator of a schema in an API version: the newest shape's JSON Schema with its named parts
 * ($defs: Money, HookMoney, …) taken down to `version` by the declared version changes, as the
 * version's document publishes them (app-api/version-changes.ts).
 */
function validatorOf(schema: z.ZodType, version: string) {
  let byVersion = compiled.get(schema);
  if (!byVersion) compiled.set(schema, (byVersion = new Map()));
  let validate = byVersion.get(version);
  if (!validate) {
    const { $schema: _s, ...json } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<
      string,
      any
    >;
    if (json.$defs) json.$defs = VERSIONING.components(json.$defs, version);
    byVersion.set(version, (validate = ajv.compile(json)));
  }
  return validate;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * What is wrong with a request by its declared schema: [] when it matches, null when it is not a
 * platform delivery or hook call (no Service-Webhooks user agent).
 */
export function checkPlatformRequest(headers: Headers, raw: string): string[] | null {
  if (header(headers, "user-agent") !== "Service-Webhooks/1.0") return null;
  const point = header(headers, "x-hook-point");
  const eventName = header(headers, "x-webhook-event");
  const schema = point
    ? HOOK_ENVELOPES[point as keyof typeof HOOK_ENVELOPES]
    : EVENT_ENVELOPES[eventName as keyof typeof EVENT_ENVELOPES];
  const what = point ? `hook call ${point}` : `delivery of ${eventName}`;
  if (!schema) return [`${what}: no schema is declared for it`];
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return [`${what}: the body is not JSON`];
  }
  const problems: string[] = [];
  const named = point ? (body as { hookPoint?: unknown })?.hookPoint : (body as { event?: unknown })?.event;
  if (named !== (point ?? eventName)) problems.push(`${what}: the body names ${String(named)}`);
  const version = header(headers, "api-version") ?? NEWEST_VERSION;
  if (!isKnownVersion(version)) return [`${what}: unknown Api-Version ${version}`];
  const validate = validatorOf(schema, version);
  if (!validate(body))
    for (const e of validate.errors ?? [])
      problems.push(
        `${what}: ${e.instancePath || "(body)"} ${e.message}${e.params ? " " + JSON.stringify(e.params) : ""}`,
      );
  return problems;
}
