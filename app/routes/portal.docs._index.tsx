import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { DOCS } from "~/platform/docs/docs.server";
import { PageHeader } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Docs · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  return json({ docs: DOCS.map(({ slug, title, summary }) => ({ slug, title, summary })) });
}

/** The two API references, after the guides. */
const REFERENCES = [
  {
    slug: "api",
    title: "App API reference",
    summary: "Every endpoint, its scope, parameters, answers and errors, from the OpenAPI 3.1 document.",
  },
  {
    slug: "platform-api",
    title: "Platform API reference",
    summary:
      "The merchant and review endpoints (/merchant, /review) for signed-in accounts, from their OpenAPI 3.1 document.",
  },
  {
    slug: "changelog",
    title: "API changelog",
    summary: "The dated API versions, their changes, statuses and sunsets; how to pin and upgrade.",
  },
];

export default function Docs() {
  const { docs } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <PageHeader title="Developer docs">Everything an app needs to talk to the platform.</PageHeader>
      <ul className="doc-cards">
        {[...docs, ...REFERENCES].map((d) => (
          <li key={d.slug} className="card">
            <h2>
              <Link to={`/portal/docs/${d.slug}`}>{d.title}</Link>
            </h2>
            <p className="muted">{d.summary}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
