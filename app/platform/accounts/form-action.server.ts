/**
 * The one form-action helper of the page routes: the form read once (readForm: 400 for a body that
 * is no form or holds NUL characters), its CSRF token checked (requireCsrf: 403), the page's handler
 * called with it, and a domain refusal (`ApiError`) turned into what the form shows, with the
 * error's status (and headers, such as a 429's Retry-After). Anything else a handler throws, a
 * redirect or a Response included, goes on unchanged.
 *
 *   export async function action({ request, context }: ActionFunctionArgs) {
 *     const { business } = await requireMerchant(request, context);
 *     return formAction(request, context, async (form) => { …; return redirect("…"); });
 *   }
 */
import { json, type TypedResponse } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError, readForm } from "../core/http.server";
import { requireCsrf } from "./session.server";

export type FormActionOptions<E> = {
  /**
   * What the page shows for a refused form, from the error and the submitted form (to give the
   * typed values back, or put the message next to its field). Default: `{ error: message }`.
   */
  error?: (e: ApiError, form: FormData) => E;
  /** An ApiError 404 is the 404 page with this text (what the page is about is gone), not a form message. */
  notFound?: string;
};

/** The default answer of a refused form: the message the page shows in its alert. */
export type FormError = { error: string };

export async function formAction<T, E = FormError>(
  request: Request,
  context: PlatformContext,
  handler: (form: FormData) => Promise<T> | T,
  options: FormActionOptions<E> = {},
): Promise<T | TypedResponse<E>> {
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  try {
    return await handler(form);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (options.notFound !== undefined && e.status === 404) throw new Response(options.notFound, { status: 404 });
    const body = options.error ? options.error(e, form) : ({ error: e.message } as E);
    return json(body, { status: e.status, headers: e.headers });
  }
}
