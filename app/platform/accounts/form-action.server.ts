/**
 * The one form-action helper of the page routes: the form read once (readForm: 400 for a body that
 * is no form or holds NUL characters), its CSRF token checked (requireCsrf: 403), the page's handler
 * called with it, and a domain refusal (`ApiError`, or a subclass such as the checkout's
 * TotalChangedError and the consent screen's OAuthPageError) turned into what the form shows, with the
 * error's status (and headers, such as a 429's Retry-After). Anything else a handler throws, a
 * redirect or a Response included, goes on unchanged.
 *
 *   export async function action({ request, context }: ActionFunctionArgs) {
 *     const { business } = await requireMerchant(request, context, "orders");
 *     return formAction(request, context, async (form) => { …; return redirect("…"); });
 *   }
 *
 * A page with its own error shape names it first: `formAction(request, context, refused, async (form) => …)`
 * with `const refused = { error: (e: ApiError, form: FormData) => ({ errors: …, values: … }) }` at the
 * top of the route: a plain object, never a call, since the browser build of the route keeps module-level
 * code but not this module (a call of a `.server` function there breaks the page's JavaScript).
 */
import { json, type TypedResponse } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { ApiError, readForm } from "../core/http.server";
import { requireCsrf } from "./session.server";

export type FormActionOptions<E> = {
  /**
   * What the page shows for a refused form, from the error and the submitted form (to give the
   * typed values back, or put the message next to its field); it may be async (a page that shows
   * a fresh total with the refusal, as the checkout does). Default: `{ error: message }`.
   */
  error?: (e: ApiError, form: FormData) => E | Promise<E>;
  /** An ApiError 404 is the 404 page with this text (what the page is about is gone), not a form message. */
  notFound?: string;
};

/** The default answer of a refused form: the message the page shows in its alert. */
export type FormError = { error: string };

/**
 * Reads the form, checks its CSRF token, runs the handler and maps an ApiError to what the form
 * shows. The options, when the page needs them, come before the handler: how the form fails, then
 * what it does.
 */
export function formAction<T>(
  request: Request,
  context: PlatformContext,
  handler: (form: FormData) => Promise<T> | T,
): Promise<T | TypedResponse<FormError>>;
export function formAction<T, E = FormError>(
  request: Request,
  context: PlatformContext,
  options: FormActionOptions<E>,
  handler: (form: FormData) => Promise<T> | T,
): Promise<T | TypedResponse<E>>;
export async function formAction<T, E>(
  request: Request,
  context: PlatformContext,
  ...rest: [(form: FormData) => Promise<T> | T] | [FormActionOptions<E>, (form: FormData) => Promise<T> | T]
): Promise<T | TypedResponse<E | FormError>> {
  const [options, handler] = rest.length === 1 ? [{} as FormActionOptions<E>, rest[0]] : rest;
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  try {
    return await handler(form);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (options.notFound !== undefined && e.status === 404) throw new Response(options.notFound, { status: 404 });
    const body = options.error ? await options.error(e, form) : { error: e.message };
    return json(body, { status: e.status, headers: e.headers });
  }
}
