import { BackLink, DataTable } from "./page-parts";
import type { ApiReferenceData } from "~/platform/docs/api-reference";

/** Markdown's `code` spans of a document's prose as <code>; the rest as text. */
function withCode(text: string) {
  return text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/** An OpenAPI document as a page: an index of the operations, each operation, then the schemas. */
export function ApiReference({
  data,
  heading,
  documentUrl,
}: {
  data: ApiReferenceData;
  heading: string;
  documentUrl: string;
}) {
  const { operations, schemas, info } = data;
  return (
    <div className="stack-lg api-ref">
      <header>
        <BackLink to="/portal/docs" label="Docs" />
        <h1>{heading}</h1>
        <p className="lead">{withCode(info.description)}</p>
        <p>
          Machine-readable: <a href={documentUrl}>{documentUrl}</a> (OpenAPI 3.1).
        </p>
      </header>
      <nav className="card" aria-label="Endpoints">
        <ul className="endpoint-index">
          {operations.map((o) => (
            <li key={o.id}>
              <a href={`#${o.id}`}>
                <span className={`method m-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code>
              </a>{" "}
              <span className="muted small">{o.summary}</span>
            </li>
          ))}
        </ul>
      </nav>
      {operations.map((o) => (
        <section key={o.id} id={o.id} className="card stack">
          <h2>
            <span className={`method m-${o.method.toLowerCase()}`}>{o.method}</span> <code>{o.path}</code>
          </h2>
          <p>
            {o.summary}. <span className="muted">{withCode(o.description)}</span>
          </p>
          {o.parameters.length ? (
            <DataTable
              rows={o.parameters}
              rowKey={(p) => p.name}
              columns={[
                { head: "Parameter", cell: (p) => <code>{p.name}</code> },
                { head: "In", cell: (p) => p.in },
                { head: "Type", cell: (p) => p.type },
                { head: "Description", className: "wide", cell: (p) => p.description },
              ]}
            />
          ) : null}
          {o.body ? (
            <p>
              Body:{" "}
              <a href={`#schema-${o.body}`}>
                <code>{o.body}</code>
              </a>
            </p>
          ) : null}
          <DataTable
            rows={o.responses}
            rowKey={(r) => r.status}
            columns={[
              { head: "Status", cell: (r) => r.status },
              { head: "Meaning", className: "wide", cell: (r) => r.description },
              {
                head: "Body",
                cell: (r) =>
                  r.type ? (
                    <a href={`#schema-${r.type}`}>
                      <code>{r.type}</code>
                    </a>
                  ) : (
                    "—"
                  ),
              },
            ]}
          />
        </section>
      ))}
      <h2>Schemas</h2>
      {schemas.map((s) => (
        <section key={s.name} id={`schema-${s.name}`} className="card stack">
          <h3>
            <code>{s.name}</code>
          </h3>
          <DataTable
            rows={s.fields}
            rowKey={(f) => f.field}
            columns={[
              { head: "Field", cell: (f) => <code>{f.field}</code> },
              { head: "Type", cell: (f) => f.type },
              { head: "Required", cell: (f) => (f.required ? "yes" : "") },
              { head: "Notes", className: "muted wide", cell: (f) => f.description },
            ]}
          />
        </section>
      ))}
    </div>
  );
}
