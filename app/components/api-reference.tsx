import { Link } from "@remix-run/react";
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
        <p>
          <Link to="/portal/docs">← Docs</Link>
        </p>
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
            <table className="table">
              <thead>
                <tr>
                  <th>Parameter</th>
                  <th>In</th>
                  <th>Type</th>
                  <th>Description</th>
                </tr>
              </thead>
              <tbody>
                {o.parameters.map((p) => (
                  <tr key={p.name}>
                    <td>
                      <code>{p.name}</code>
                    </td>
                    <td data-label="In">{p.in}</td>
                    <td data-label="Type">{p.type}</td>
                    <td data-label="Description" className="wide">
                      {p.description}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {o.body ? (
            <p>
              Body:{" "}
              <a href={`#schema-${o.body}`}>
                <code>{o.body}</code>
              </a>
            </p>
          ) : null}
          <table className="table">
            <thead>
              <tr>
                <th>Status</th>
                <th>Meaning</th>
                <th>Body</th>
              </tr>
            </thead>
            <tbody>
              {o.responses.map((r) => (
                <tr key={r.status}>
                  <td>{r.status}</td>
                  <td data-label="Meaning" className="wide">
                    {r.description}
                  </td>
                  <td data-label="Body">
                    {r.type ? (
                      <a href={`#schema-${r.type}`}>
                        <code>{r.type}</code>
                      </a>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <h2>Schemas</h2>
      {schemas.map((s) => (
        <section key={s.name} id={`schema-${s.name}`} className="card stack">
          <h3>
            <code>{s.name}</code>
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th>Field</th>
                <th>Type</th>
                <th>Required</th>
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              {s.fields.map((f) => (
                <tr key={f.field}>
                  <td>
                    <code>{f.field}</code>
                  </td>
                  <td data-label="Type">{f.type}</td>
                  <td data-label="Required">{f.required ? "yes" : ""}</td>
                  <td data-label="Notes" className="muted wide">
                    {f.description}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
