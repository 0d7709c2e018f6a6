import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import {
  ADMIN_PAGE_SIZE,
  formatMoney,
  pageCount,
  readPage,
  searchProducts,
} from "~/platform/catalog/admin-queries.server";
import { EmptyState } from "~/components/area-layout";
import { isSafeImageSrc } from "~/components/product-form";
import { Pagination } from "~/components/pagination";
import { DataTable, PageHeader, SearchForm, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Products · Admin" }];

const MAX_QUERY = 100;
const LOW_STOCK = 5;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY).trim();
  const page = readPage(url);
  const { rows, total } = await searchProducts(context.db, business.id, { q, page });
  return json({
    q,
    page,
    pageSize: ADMIN_PAGE_SIZE,
    pages: pageCount(total),
    total,
    products: rows.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      price: formatMoney(p.price, business.currency, business.locale),
      status: p.status,
      isAvailable: p.isAvailable,
      stock: p.stock,
      imageUrl: p.imageUrl,
    })),
  });
}

const STATUS_TONE: Record<string, string> = { ACTIVE: "ok", DRAFT: "", ARCHIVED: "warn" };

export default function AdminProducts() {
  const { q, page, pageSize, pages, total, products } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const saved = params.get("saved");
  return (
    <div className="stack-lg">
      <PageHeader
        title="Products"
        action={
          <Link to="/admin/products/new" className="button primary">
            Add product
          </Link>
        }
      >
        What you sell: prices, stock and what shows in your storefront.
      </PageHeader>
      <SuccessNotice show={saved === "deleted"}>The product was deleted.</SuccessNotice>

      <SearchForm q={q} maxLength={MAX_QUERY} placeholder="Search products by name" label="Search products" />

      {products.length === 0 ? (
        q ? (
          <EmptyState title={`No products match "${q}"`}>
            <p>
              <Link to="/admin/products">Clear the search</Link> to see every product.
            </p>
          </EmptyState>
        ) : total > 0 ? (
          <EmptyState title="No products on this page">
            <p>
              <Link to="/admin/products">Go to the first page</Link>.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No products yet">
            <p>Add what you sell and it appears in your storefront.</p>
            <p>
              <Link to="/admin/products/new" className="button primary">
                Add your first product
              </Link>
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <p className="muted small" role="status">
            {total} {total === 1 ? "product" : "products"}
            {q ? (
              <>
                {" "}
                {total === 1 ? "matches" : "match"} "{q}" · <Link to="/admin/products">Clear search</Link>
              </>
            ) : null}
          </p>
          <DataTable
            rows={products}
            rowKey={(p) => p.id}
            rowProps={() => ({ "data-testid": "product-row" })}
            columns={[
              {
                head: "Product",
                cell: (p) => (
                  <div className="product-cell">
                    {p.imageUrl && isSafeImageSrc(p.imageUrl) ? (
                      <img className="product-thumb" src={p.imageUrl} alt="" width={36} height={36} loading="lazy" />
                    ) : (
                      <span className="product-thumb placeholder" aria-hidden>
                        {p.name.trim().charAt(0).toUpperCase() || "?"}
                      </span>
                    )}
                    <div>
                      <Link to={`/admin/products/${p.id}`} className="break">
                        <strong>{p.name}</strong>
                      </Link>
                      <div className="muted small break">/{p.slug}</div>
                    </div>
                  </div>
                ),
              },
              { head: "Price", className: "num", cell: (p) => p.price },
              {
                head: "Status",
                cell: (p) => <span className={`badge ${STATUS_TONE[p.status] ?? ""}`}>{p.status.toLowerCase()}</span>,
              },
              {
                head: "Availability",
                cell: (p) => (p.isAvailable ? "Available" : <span className="muted">Not for sale</span>),
              },
              {
                head: "Stock",
                cell: (p) =>
                  p.stock === null ? (
                    <span className="muted">untracked</span>
                  ) : p.stock === 0 ? (
                    <span className="badge danger">out of stock</span>
                  ) : p.stock < LOW_STOCK ? (
                    <>
                      {p.stock} <span className="badge warn">low</span>
                    </>
                  ) : (
                    p.stock
                  ),
              },
              {
                head: <span className="sr-only">Actions</span>,
                label: "",
                cell: (p) => (
                  <Link to={`/admin/products/${p.id}`} className="button small" aria-label={`Edit ${p.name}`}>
                    Edit
                  </Link>
                ),
              },
            ]}
          />
        </>
      )}
      <Pagination page={page} pages={pages} path="/admin/products" query={{ q }} />
      <p className="muted small">{pageSize} products per page, newest first.</p>
    </div>
  );
}
