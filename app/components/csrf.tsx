import { useRouteLoaderData } from "@remix-run/react";

/** The hidden CSRF field every form carries; the action checks it with requireCsrf. */
export function CsrfInput() {
  const data = useRouteLoaderData<{ csrf: string }>("root");
  return <input type="hidden" name="csrf" value={data?.csrf ?? ""} />;
}
