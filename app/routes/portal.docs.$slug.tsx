import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { neighbours, renderDoc } from "~/platform/docs/docs.server";
import { BackLink } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.title ?? "Docs"} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  const doc = renderDoc(params.slug ?? "", { platformUrl: context.env.publicUrl });
  if (!doc) throw new Response("No such guide.", { status: 404 });
  const { prev, next } = neighbours(doc.entry.slug);
  const link = (d: typeof prev) => (d ? { slug: d.slug, title: d.title } : null);
  return json({
    slug: doc.entry.slug,
    title: doc.title || doc.entry.title,
    html: doc.html,
    toc: doc.headings.filter((h) => h.depth === 2).map(({ id, text }) => ({ id, text })),
    prev: link(prev),
    next: link(next),
  });
}

export default function DocPage() {
  const { html, toc, prev, next } = useLoaderData<typeof loader>();
  const tocList = (
    <ul>
      {toc.map((h) => (
        <li key={h.id}>
          <a href={`#${h.id}`}>{h.text}</a>
        </li>
      ))}
    </ul>
  );
  return (
    <div className="doc-layout">
      <nav className="doc-toc" aria-label="On this page">
        <BackLink to="/portal/docs" label="Docs" />
        {toc.length ? (
          <>
            <div className="doc-toc-wide">
              <h2 className="doc-toc-title">On this page</h2>
              {tocList}
            </div>
            {/* on a phone the contents fold away, and each entry is a finger's height */}
            <details className="doc-toc-phone">
              <summary>On this page</summary>
              {tocList}
            </details>
          </>
        ) : null}
      </nav>
      <div className="doc-main">
        {/* Our own Markdown from docs/developers, rendered on the server with raw HTML escaped. */}
        <article className="doc" dangerouslySetInnerHTML={{ __html: html }} />
        <nav className="doc-pager" aria-label="More guides">
          {prev ? (
            <Link to={`/portal/docs/${prev.slug}`} rel="prev" className="doc-pager-prev">
              <span className="muted small">Previous</span> {prev.title}
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={`/portal/docs/${next.slug}`} rel="next" className="doc-pager-next">
              <span className="muted small">Next</span> {next.title}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      </div>
    </div>
  );
}
