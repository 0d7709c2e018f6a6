import { useStorefrontUrl } from "~/components/origins";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { asc, eq } from "drizzle-orm";
import { pages } from "../../db/schema";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { PAGE_SLUG, savePage } from "~/platform/extensions/merchant.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { Card, DataTable, ErrorAlert, PageHeader } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Site pages · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "pages");
  const rows = await context.db
    .select()
    .from(pages)
    .where(eq(pages.businessId, business.id))
    .orderBy(asc(pages.createdAt));
  return json({
    slug: business.slug,
    pages: rows.map((p) => ({
      slug: p.slug,
      title: p.title,
      isPublished: p.isPublished,
      blocks: p.blocks.length,
      updatedAt: p.updatedAt.toISOString(),
    })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "pages");
  return formAction(request, context, async (form) => {
    const slug = String(form.get("slug") ?? "").trim();
    const title = String(form.get("title") ?? "").trim();
    if (!PAGE_SLUG.test(slug))
      return json({ error: "The address must be lowercase letters, digits and hyphens, like summer-menu." }, 400);
    await savePage(
      context.db,
      business.id,
      slug,
      {
        title: title || slug,
        isPublished: false,
        blocks: [{ kind: "builtin", type: "heading", settings: { text: title || slug } }],
      },
      { createOnly: true },
    );
    return redirect(`/admin/pages/${slug}`);
  });
}

export default function SitePages() {
  const { slug, pages } = useLoaderData<typeof loader>();
  const storefront = useStorefrontUrl();
  const data = useActionData<typeof action>();
  return (
    <div className="stack-lg">
      <PageHeader title="Site pages">
        Build your storefront's pages from blocks: headings, text, images, product grids, and the blocks of your
        installed apps.
      </PageHeader>
      <DataTable
        rows={pages}
        rowKey={(p) => p.slug}
        columns={[
          {
            head: "Page",
            cell: (p) => (
              <Link to={`/admin/pages/${p.slug}`}>
                <strong>{p.title}</strong>
              </Link>
            ),
          },
          {
            head: "Address",
            cell: (p) => (
              <a
                href={storefront(p.slug === "home" ? `/s/${slug}` : `/s/${slug}/pages/${p.slug}`)}
                target="_blank"
                rel="noreferrer"
              >
                <code>{p.slug === "home" ? `/s/${slug}` : `/s/${slug}/pages/${p.slug}`}</code>
              </a>
            ),
          },
          { head: "Blocks", cell: (p) => p.blocks },
          {
            head: "State",
            cell: (p) =>
              p.isPublished ? <span className="badge ok">published</span> : <span className="badge">draft</span>,
          },
          {
            head: "",
            cell: (p) => (
              <Link to={`/admin/pages/${p.slug}`} className="button small">
                Edit
              </Link>
            ),
          },
        ]}
      />
      <Card title="New page">
        <ErrorAlert error={data?.error} />
        <Form method="post" className="row">
          <CsrfInput />
          <label>
            Title <input name="title" required maxLength={120} />
          </label>
          <label>
            Address <input name="slug" required pattern="[a-z0-9]+(-[a-z0-9]+)*" placeholder="summer-menu" />
          </label>
          <SubmitButton className="button primary" busyLabel="Creating…">
            Create page
          </SubmitButton>
        </Form>
      </Card>
    </div>
  );
}
