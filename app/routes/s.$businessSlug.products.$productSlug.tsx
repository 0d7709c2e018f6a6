import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CsrfInput } from "~/components/csrf";
import {
  AddToCartForm,
  ProductImage,
  Stars,
  StorefrontErrorBoundary,
  sfMeta,
  shopPath,
} from "~/components/storefront-blocks";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { createReview, reviewSchema } from "~/platform/catalog/products.server";
import { storefrontFieldErrors } from "~/components/storefront-fields";
import {
  dateFormatter,
  loadBusinessBySlug,
  moneyFormatter,
  productBySlug,
  productView,
  shopOf,
  shopWords,
} from "~/storefront.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => [
  ...sfMeta(matches, data?.product.name ?? "Product not found", data?.product.description.slice(0, 160)),
];

const productNotFound = () =>
  new Response("We could not find this product. It may no longer be for sale.", { status: 404 });

/** Set on the page a review form's post leads to (`?reviewed=<the review's id>`: an address no cache holds yet, so the new review shows at once). */
const REVIEWED = /^(1|rev_[A-Za-z0-9_-]{1,64})$/;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const { business } = await shopOf(context, params.businessSlug);
  const found = await productBySlug(context.db, business.id, params.productSlug);
  if (!found) throw productNotFound();
  const date = dateFormatter(business);
  return json({
    slug: business.slug,
    shopName: business.name,
    catalogue: shopWords(business.type).catalogue,
    product: productView(found.product, moneyFormatter(business)),
    stats: found.stats,
    reviews: found.reviews.map((r) => ({
      id: r.id,
      authorName: r.authorName,
      rating: r.rating,
      comment: r.comment,
      date: date(r.createdAt),
      iso: r.createdAt.toISOString(),
      reply:
        r.replyBody !== null && r.replyCreatedAt
          ? { body: r.replyBody, date: date(r.replyCreatedAt), iso: r.replyCreatedAt.toISOString() }
          : null,
    })),
    reviewed: REVIEWED.test(new URL(request.url).searchParams.get("reviewed") ?? ""),
  });
}

type ReviewFields = "authorName" | "authorEmail" | "rating" | "comment";
const MESSAGES: Record<ReviewFields, string> = {
  authorName: "Please enter your name (up to 80 characters).",
  authorEmail: "Please enter a valid e-mail address, or leave it empty.",
  rating: "Please choose a rating from 1 to 5.",
  comment: "Please keep your comment under 2000 characters.",
};

/** The review form as typed (given back with its errors). */
const reviewValues = (form: FormData) => ({
  authorName: String(form.get("authorName") ?? "").slice(0, 200),
  authorEmail: String(form.get("authorEmail") ?? "").slice(0, 300),
  rating: String(form.get("rating") ?? ""),
  comment: String(form.get("comment") ?? "").slice(0, 5000),
});

const refused = {
  error: (e: ApiError, form: FormData) => ({
    error: e.message,
    fieldErrors: {} as Partial<Record<ReviewFields, string>>,
    values: reviewValues(form),
  }),
};

export async function action({ params, request, context }: ActionFunctionArgs) {
  return formAction(request, context, refused, async (form) => {
    const business = await loadBusinessBySlug(context.db, params.businessSlug);
    const found = await productBySlug(context.db, business.id, params.productSlug, { reviewLimit: 0 });
    if (!found) throw productNotFound();
    const values = reviewValues(form);
    const parsed = reviewSchema.safeParse({
      authorName: values.authorName,
      authorEmail: values.authorEmail,
      rating: /^[1-5]$/.test(values.rating) ? Number(values.rating) : NaN,
      comment: values.comment,
    });
    if (!parsed.success) {
      const fieldErrors: Partial<Record<ReviewFields, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as ReviewFields;
        if (field in MESSAGES) fieldErrors[field] = MESSAGES[field];
      }
      return json({ error: "Please check your review.", fieldErrors, values }, 400);
    }
    const review = await createReview(context.db, business.id, found.product.id, parsed.data);
    return redirect(
      `${shopPath(business.slug, `/products/${encodeURIComponent(found.product.slug)}`)}?reviewed=${encodeURIComponent(review.id)}#reviews`,
    );
  });
}

function availabilityText(p: { availability: string; lowStock: number | null }) {
  if (p.availability === "unavailable") return "Currently unavailable";
  if (p.availability === "sold-out") return "Sold out";
  return "Available";
}

export default function ProductPage() {
  const { slug, shopName, catalogue, product, stats, reviews, reviewed } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.has("authorName") === true;
  const errors = data?.fieldErrors ?? {};
  const { invalid, fieldError } = storefrontFieldErrors("review", errors);
  return (
    <div className="sf-product-page">
      <nav aria-label="Breadcrumb" className="sf-breadcrumb">
        <Link to={shopPath(slug, "/products")}>{catalogue}</Link>
        {product.category ? <span aria-hidden="true"> / </span> : null}
        {product.category ? <span>{product.category}</span> : null}
      </nav>
      <article className="sf-product">
        <ProductImage src={product.imageUrl} alt={product.name} className="sf-product-media" eager />
        <div className="sf-product-info">
          <h1>{product.name}</h1>
          <p className="sf-product-price">{product.priceLabel}</p>
          {stats.totalReviews > 0 ? (
            <p className="sf-rating-line">
              <a href="#reviews">
                <Stars rating={stats.averageRating} /> {stats.averageRating.toFixed(1)} ({stats.totalReviews}{" "}
                {stats.totalReviews === 1 ? "review" : "reviews"})
              </a>
            </p>
          ) : null}
          {product.description ? <p className="sf-product-desc">{product.description}</p> : null}
          <p className={product.sellable ? "sf-availability sf-ok" : "sf-availability sf-out"}>
            {availabilityText(product)}
            {product.sellable && product.lowStock !== null ? (
              <span className="sf-stock-note"> · Only {product.lowStock} left</span>
            ) : null}
          </p>
          {product.sellable ? <AddToCartForm product={product} slug={slug} withQuantity /> : null}
        </div>
      </article>

      <section id="reviews" className="sf-reviews" aria-labelledby="reviews-title">
        <h2 id="reviews-title">Reviews</h2>
        {reviewed ? (
          <p className="sf-alert sf-alert-success" role="status">
            Thank you for your review!
          </p>
        ) : null}
        {stats.totalReviews > 0 ? (
          <p className="sf-review-summary">
            <Stars rating={stats.averageRating} /> <strong>{stats.averageRating.toFixed(1)} out of 5</strong> ·{" "}
            {stats.totalReviews} {stats.totalReviews === 1 ? "review" : "reviews"}
          </p>
        ) : (
          <p className="sf-muted">No reviews yet. Be the first to tell others what you think.</p>
        )}
        {reviews.length > 0 ? (
          <ol className="sf-review-list">
            {reviews.map((r) => (
              <li key={r.id} className="sf-review">
                <p className="sf-review-head">
                  <strong>{r.authorName}</strong> <Stars rating={r.rating} />{" "}
                  <time dateTime={r.iso} className="sf-muted">
                    {r.date}
                  </time>
                </p>
                {r.comment ? <p className="sf-review-comment">{r.comment}</p> : null}
                {r.reply ? (
                  <div className="sf-review-reply" data-testid="review-reply">
                    <p className="sf-review-reply-head">
                      <strong>Reply from {shopName}</strong>{" "}
                      <time dateTime={r.reply.iso} className="sf-muted">
                        {r.reply.date}
                      </time>
                    </p>
                    <p className="sf-review-comment">{r.reply.body}</p>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        ) : null}

        <Form method="post" className="sf-form sf-review-form" aria-labelledby="review-form-title" preventScrollReset>
          <h3 id="review-form-title">Write a review</h3>
          {data?.error ? (
            <p className="sf-alert sf-alert-error" role="alert">
              {data.error}
            </p>
          ) : null}
          <CsrfInput />
          <div className="sf-field">
            <label htmlFor="review-authorName">Your name</label>
            <input
              id="review-authorName"
              name="authorName"
              autoComplete="name"
              maxLength={80}
              required
              defaultValue={data?.values.authorName}
              {...invalid("authorName")}
            />
            {fieldError("authorName")}
          </div>
          <div className="sf-field">
            <label htmlFor="review-authorEmail">
              Your e-mail <span className="sf-muted">(optional, never shown)</span>
            </label>
            <input
              id="review-authorEmail"
              name="authorEmail"
              type="email"
              autoComplete="email"
              maxLength={254}
              defaultValue={data?.values.authorEmail}
              aria-describedby="review-authorEmail-hint"
              {...invalid("authorEmail")}
            />
            <p id="review-authorEmail-hint" className="sf-muted">
              Lets the shop find your review if you ask for your data or for it to be erased.
            </p>
            {fieldError("authorEmail")}
          </div>
          <div className="sf-field">
            <label htmlFor="review-rating">Rating</label>
            <select
              id="review-rating"
              name="rating"
              required
              defaultValue={data?.values.rating ?? ""}
              {...invalid("rating")}
            >
              <option value="" disabled>
                Choose a rating
              </option>
              <option value="5">5 – Excellent</option>
              <option value="4">4 – Good</option>
              <option value="3">3 – Okay</option>
              <option value="2">2 – Poor</option>
              <option value="1">1 – Bad</option>
            </select>
            {fieldError("rating")}
          </div>
          <div className="sf-field">
            <label htmlFor="review-comment">
              Comment <span className="sf-muted">(optional)</span>
            </label>
            <textarea
              id="review-comment"
              name="comment"
              rows={4}
              maxLength={2000}
              defaultValue={data?.values.comment}
              {...invalid("comment")}
            />
            {fieldError("comment")}
          </div>
          <button type="submit" className="sf-button sf-button-primary" disabled={busy}>
            {busy ? "Sending…" : "Submit review"}
          </button>
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
