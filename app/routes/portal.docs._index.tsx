import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";

export const meta: MetaFunction = () => [{ title: "Docs · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  return null;
}

export default function Docs() {
  return (
    <div className="stack-lg">
      <header>
        <h1>Developer docs</h1>
        <p className="lead">Everything an app needs to talk to the platform.</p>
      </header>
      <ul className="doc-cards">
        <li className="card">
          <h2><Link to="/portal/docs/api">App API reference</Link></h2>
          <p className="muted">Every endpoint, its scope, parameters, answers and errors, from the OpenAPI 3.1 document.</p>
        </li>
      </ul>
    </div>
  );
}
