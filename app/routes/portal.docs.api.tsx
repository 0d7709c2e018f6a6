import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { appApiDocument } from "~/operations.server";

export const meta: MetaFunction = () => [{ title: "App API reference · Developer portal" }];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; enum?: unknown[]; description?: string; required?: string[]; anyOf?: Schema[] };

function typeOf(s: Schema | undefined): string {
  if (!s) return "";
  if (s.$ref) return s.$ref.replace("#/components/schemas/", "");
  if (s.enum) return s.enum.map(String).join(" | ");
  if (s.anyOf) return s.anyOf.map(typeOf).join(" | ");
  if (s.type === "array") return `${typeOf(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  const doc = appApiDocument(context.env.publicUrl);
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops as Record<string, any>).map(([method, op]) => ({
      id: op.operationId as string,
      method: method.toUpperCase(),
      path,
      summary: op.summary as string,
      description: op.description as string,
      parameters: ((op.parameters ?? []) as any[]).map((p) => ({ name: p.name as string, in: p.in as string, description: (p.description ?? "") as string, type: typeOf(p.schema) })),
      body: op.requestBody ? typeOf(op.requestBody.content["application/json"].schema) : null,
      responses: Object.entries(op.responses as Record<string, any>).map(([status, r]) => ({ status, description: r.description as string, type: r.content ? typeOf(r.content["application/json"].schema) : "" })),
    })),
  );
  const schemas = Object.entries(doc.components.schemas as Record<string, Schema>).map(([name, s]) => ({
    name,
    fields: Object.entries(s.properties ?? {}).map(([field, f]) => ({ field, type: typeOf(f), required: (s.required ?? []).includes(field), description: f.description ?? "" })),
  }));
  return json({ operations, schemas, info: doc.info });
}

export default function ApiReference() {
  const { operations, schemas, info } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg api-ref">
      <header>
        <p><Link to="/portal/docs">← Docs</Link></p>
        <h1>App API reference</h1>
        <p className="lead">{info.description}</p>
        <p>Machine-readable: <a href="/app-api/openapi.json">/app-api/openapi.json</a> (OpenAPI 3.1).</p>
      </header>
      <nav className="card" aria-label="Endpoints">
        <ul className="endpoint-index">
          {operations.map((o) => (
            <li key={o.id}><a href={`#${o.id}`}><span className={`method m-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code></a> <span className="muted small">{o.summary}</span></li>
          ))}
        </ul>
      </nav>
      {operations.map((o) => (
        <section key={o.id} id={o.id} className="card stack">
          <h2><span className={`method m-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code></h2>
          <p>{o.summary}. <span className="muted">{o.description.replace(/`/g, "")}</span></p>
          {o.parameters.length ? (
            <table className="table">
              <thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr></thead>
              <tbody>{o.parameters.map((p) => <tr key={p.name}><td><code>{p.name}</code></td><td data-label="In">{p.in}</td><td data-label="Type">{p.type}</td><td data-label="Description" className="wide">{p.description}</td></tr>)}</tbody>
            </table>
          ) : null}
          {o.body ? <p>Body: <a href={`#schema-${o.body}`}><code>{o.body}</code></a></p> : null}
          <table className="table">
            <thead><tr><th>Status</th><th>Meaning</th><th>Body</th></tr></thead>
            <tbody>{o.responses.map((r) => <tr key={r.status}><td>{r.status}</td><td data-label="Meaning" className="wide">{r.description}</td><td data-label="Body">{r.type ? <a href={`#schema-${r.type}`}><code>{r.type}</code></a> : "—"}</td></tr>)}</tbody>
          </table>
        </section>
      ))}
      <h2>Schemas</h2>
      {schemas.map((s) => (
        <section key={s.name} id={`schema-${s.name}`} className="card stack">
          <h3><code>{s.name}</code></h3>
          <table className="table">
            <thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead>
            <tbody>{s.fields.map((f) => <tr key={f.field}><td><code>{f.field}</code></td><td data-label="Type">{f.type}</td><td data-label="Required">{f.required ? "yes" : ""}</td><td data-label="Notes" className="muted wide">{f.description}</td></tr>)}</tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
