import { describeZodError } from "~/platform/core/http.server";
import { reviewSchema, type ReviewInput } from "~/platform/apps/app-reviews.server";

/**
 * The review that AppReviewForm posts (a rating of 1 to 5 stars and a text), read and checked:
 * the input, or the sentence that the form shows above its fields.
 */
export function readReviewForm(form: FormData): { ok: true; input: ReviewInput } | { ok: false; error: string } {
  const parsed = reviewSchema.safeParse({
    rating: Number(form.get("rating") ?? 0),
    body: String(form.get("body") ?? ""),
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    error: form.get("rating") ? describeZodError(parsed.error) : "Choose a rating from 1 to 5 stars",
  };
}
