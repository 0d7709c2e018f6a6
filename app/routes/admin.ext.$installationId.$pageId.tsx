import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { adminSessionToken, businessAdminPages } from "~/platform/extensions/merchant.server";
import { getAppForReview } from "~/platform/apps/review.server";
import { originOf } from "~/components/block-frame";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "App page"} · Admin` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  // every member sees the app pages: the app learns who is looking (owner, permissions) and hides
  // what the person may not do (decision 070)
  const { account, business, member } = await requireMerchant(request, context, null);
  const person = { accountId: account.id, name: account.name, owner: member.owner, permissions: member.permissions };
  const page = (await businessAdminPages(context.db, business.id)).find(
    (p) => p.installationId === params.installationId && p.pageId === params.pageId,
  );
  if (!page) throw new Response("This app page is not available.", { status: 404 });
  const app = await getAppForReview(context.db, page.appId);
  const src = new URL(page.renderUrl);
  src.searchParams.set("businessId", business.id);
  src.searchParams.set("locale", business.locale);
  return json(
    {
      title: page.title,
      appName: page.appName,
      src: src.toString(),
      cspFrameOrigins: [page.renderUrl],
      init: {
        type: "service:init",
        businessId: business.id,
        businessName: business.name,
        role: account.role,
        locale: business.locale,
        accountId: account.id,
        name: account.name,
        owner: member.owner,
        permissions: member.permissions,
        sessionToken: await adminSessionToken(context.env, app, person, business.id),
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A full-page, sandboxed iframe of the app's admin page; on load it receives service:init (posted to its origin only). */
export default function AppAdminPage() {
  const { title, appName, src, init } = useLoaderData<typeof loader>();
  const frame = useRef<HTMLIFrameElement>(null);
  const origin = originOf(src);
  const post = () => {
    if (origin) frame.current?.contentWindow?.postMessage(init, origin);
  };
  // the frame may have loaded before hydration: post once now too (a not-yet-loaded frame drops it)
  useEffect(post, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="app-page">
      <header className="app-page-head">
        <h1>{title}</h1>
        <span className="muted small">{appName}</span>
      </header>
      <iframe
        ref={frame}
        src={src}
        title={`${title} — ${appName}`}
        className="app-page-frame"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        onLoad={post}
      />
    </div>
  );
}
