import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "~/platform/core/http.server";
import { appApiDocument } from "~/operations.server";

/** The OpenAPI 3.1 document of the App API and /webhooks (public), collected from the route modules' declarations. */
export const loader = ({ context }: LoaderFunctionArgs) =>
  json(appApiDocument(context.env.publicUrl), 200, {
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
