import { jsonNotFound } from "~/platform/core/http.server";

export const { loader, action } = jsonNotFound;
