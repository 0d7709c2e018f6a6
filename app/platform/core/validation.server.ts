import { z } from "zod";
import type { Env } from "./env.server";

/**
 * An absolute http(s) URL; in production https only. javascript:, data: and every other scheme
 * are refused wherever a URL is stored.
 */
export function webUrl(env: Pick<Env, "isProduction">) {
  return z
    .string()
    .trim()
    .max(2000)
    .refine((value) => {
      try {
        const url = new URL(value);
        if (env.isProduction) return url.protocol === "https:";
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, env.isProduction ? "must be an absolute https URL" : "must be an absolute http(s) URL");
}
