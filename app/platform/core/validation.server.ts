import { z } from "zod";
import type { Env } from "./env.server";
import { appUrlProblem } from "./urls";

/**
 * An absolute http(s) URL; in production https only. javascript:, data: and every other scheme
 * are refused wherever a URL is stored.
 */
export function webUrl(env: Pick<Env, "isProduction">) {
  return z
    .string()
    .trim()
    .max(2000)
    .superRefine((value, ctx) => {
      const problem = appUrlProblem(value, { httpsOnly: env.isProduction });
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}
