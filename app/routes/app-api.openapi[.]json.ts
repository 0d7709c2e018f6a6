import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "~/platform/core/http.server";
import { openApiDocument } from "~/platform/app-api/openapi.server";

/** The OpenAPI 3.1 document of the App API and /webhooks (public). */
export const loader = ({ context }: LoaderFunctionArgs) => json(openApiDocument(context.env.publicUrl), 200, { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" });
