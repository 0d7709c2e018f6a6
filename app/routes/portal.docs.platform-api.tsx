import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { apiReference } from "~/platform/docs/api-reference";
import { platformDocument } from "~/operations.server";
import { ApiReference } from "~/components/api-reference";

export const meta: MetaFunction = () => [{ title: "Platform API reference · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context, "DEVELOPER");
  return json(apiReference(platformDocument(context.env.publicUrl)));
}

export default function PlatformApiReference() {
  return (
    <ApiReference
      data={useLoaderData<typeof loader>()}
      heading="Platform API reference"
      documentUrl="/developer/openapi.json"
    />
  );
}
