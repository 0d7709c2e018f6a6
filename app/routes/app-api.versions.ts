import { json } from "~/platform/core/http.server";
import { now } from "~/platform/core/clock.server";
import { versionsAnswer } from "~/platform/versions/registry";

/** `GET /app-api/versions` (public, no token; contract 12): the current version and every supported one with its status and sunset. */
export const loader = () =>
  json(versionsAnswer(now()), 200, { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=60" });
