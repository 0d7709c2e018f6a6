/**
 * The view of an OpenAPI document that the portal's API reference pages show (App API and Platform
 * API, decision 025): operations with their parameters, body and answers, and the named schemas.
 */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  enum?: unknown[];
  description?: string;
  required?: string[];
  anyOf?: Schema[];
};

export function typeOf(s: Schema | undefined): string {
  if (!s) return "";
  if (s.$ref) return s.$ref.replace("#/components/schemas/", "");
  if (s.enum) return s.enum.map(String).join(" | ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.type === "array") return `${typeOf(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
}

/** A body's or answer's type: its schema's, with its media type when it is not JSON (a form, an event stream). */
function contentType(content: Record<string, { schema?: Schema }> | undefined): string {
  const [media, entry] = Object.entries(content ?? {})[0] ?? [];
  if (!media) return "";
  return media === "application/json" ? typeOf(entry?.schema) : `${typeOf(entry?.schema)} (${media})`;
}

export function apiReference(doc: {
  info: { title: string; description: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}) {
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops as Record<string, any>).map(([method, op]) => ({
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      summary: op.summary as string,
      description: (op.description ?? "") as string,
      parameters: ((op.parameters ?? []) as any[]).map((p) => ({
        name: p.name as string,
        in: p.in as string,
        description: (p.description ?? "") as string,
        type: typeOf(p.schema),
      })),
      body: op.requestBody ? contentType(op.requestBody.content) : null,
      responses: Object.entries(op.responses as Record<string, any>).map(([status, r]) => ({
        status,
        description: r.description as string,
        type: contentType(r.content),
      })),
    })),
  );
  const schemas = Object.entries(doc.components.schemas as Record<string, Schema>).map(([name, s]) => ({
    name,
    fields: Object.entries(s.properties ?? {}).map(([field, f]) => ({
      field,
      type: typeOf(f),
      required: (s.required ?? []).includes(field),
      description: f.description ?? "",
    })),
  }));
  return { operations, schemas, info: doc.info };
}
export type ApiReferenceData = ReturnType<typeof apiReference>;
