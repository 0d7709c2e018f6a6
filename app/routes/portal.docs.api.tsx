import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { apiReference } from "~/platform/docs/api-reference";
import { appApiDocument } from "~/operations.server";
import { ApiReference } from "~/components/api-reference";

export const meta: MetaFunction = () => [{ title: "App API reference · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  return json(apiReference(appApiDocument(context.env.publicUrl)));
}

export default function AppApiReference() {
  return (
    <ApiReference
      data={useLoaderData<typeof loader>()}
      heading="App API reference"
      documentUrl="/app-api/openapi.json"
    />
  );
}
