import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "~/platform/core/http.server";
import { platformDocument } from "~/operations.server";

/** The OpenAPI 3.1 document of the Platform API (/merchant, /review), public, collected from the route modules' declarations. */
export const loader = ({ context }: LoaderFunctionArgs) =>
  json(platformDocument(context.env.publicUrl), 200, {
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
