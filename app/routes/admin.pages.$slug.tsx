/**
 * The site builder's page: loads the page, the blocks the business may add (those of its active
 * installations, a sandbox's test installations included) and the live preview's address, saves the
 * edited page. The builder itself is app/components/site-builder/ (decision 017).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useRef } from "react";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { getPage } from "~/platform/catalog/queries.server";
import { availableBlocks, savePage } from "~/platform/extensions/merchant.server";
import { previewUrl } from "~/platform/extensions/preview.server";
import { SiteBuilder, type BuilderData } from "~/components/site-builder/site-builder";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.title ?? "Page"} · Site builder` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { account, business, sandbox } = await requireMerchant(request, context, "pages");
  const page = await getPage(context.db, business.id, params.slug!).catch(orNotFound("Page not found"));
  const blocks = await availableBlocks(context.db, business.id);
  const data: BuilderData = {
    business: { id: business.id, slug: business.slug, locale: business.locale },
    page: {
      slug: page.slug,
      title: page.title,
      isPublished: page.isPublished,
      blocks: page.blocks,
      version: page.updatedAt.toISOString(),
    },
    available: blocks.map((b) => ({
      appId: b.appId,
      appName: b.appName,
      blockType: b.blockType,
      name: b.name,
      description: b.description ?? "",
      category: b.category || "Apps",
      iconName: b.iconName ?? "",
      settingsSchema: b.settingsSchema ?? null,
      defaultConfig: b.defaultConfig ?? {},
    })),
    // the live preview on the storefront's origin, opened with a fresh 5-minute preview token
    preview: {
      url: await previewUrl(context.env, business, page.slug, account.id),
      origin: new URL(context.env.storefrontUrl).origin,
    },
  };
  return json({
    ...data,
    sandbox,
    // the preview's frame, and the JSON-Schema settings forms (page-csp.server.ts)
    cspFrameOrigins: [context.env.storefrontUrl],
    cspEval: true,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "pages");
  return formAction(request, context, async (form) => {
    let body: unknown;
    try {
      body = JSON.parse(String(form.get("page") ?? ""));
    } catch {
      return json({ error: "The page could not be read; reload and try again." }, 400);
    }
    await savePage(context.db, business.id, params.slug!, body);
    return redirect(`/admin/pages/${params.slug}?saved=1`);
  });
}

export default function PageEditorRoute() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  // after a save the builder starts again from the saved page (the server gave new blocks their ids)
  const selectedIndex = useRef<number | null>(0);
  return (
    <SiteBuilder
      key={data.page.version}
      data={data as BuilderData}
      selectedIndex={selectedIndex}
      error={result?.error}
      savedNotice={!!params.get("saved") && !result}
      sandbox={data.sandbox}
    />
  );
}
