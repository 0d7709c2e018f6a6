/**
 * The App API's JSON shapes of catalogue records (contract section 6), in the newest API version:
 * money as {amount, currency} in minor units (core/money.ts); older versions are made from these
 * by the declared version changes (app-api/version-changes.ts).
 */
import type { Business, Order, OrderItem, Page, Product, Review } from "../../../db/schema";
import { money } from "../core/money";

export function serializeBusiness(b: Business) {
  return {
    id: b.id,
    name: b.name,
    slug: b.slug,
    type: b.type,
    address: b.address,
    phone: b.phone,
    email: b.email,
    currency: b.currency,
    locale: b.locale,
    timezone: b.timezone,
  };
}

/** A product; its price in the business's currency. */
export function serializeProduct(p: Product, currency: string) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: money(p.price, currency),
    category: p.category,
    isAvailable: p.isAvailable,
    imageUrl: p.imageUrl,
    slug: p.slug,
    status: p.status,
    stock: p.stock,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function serializeOrder(o: Order, items: OrderItem[]) {
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    subtotal: money(o.subtotal, o.currency),
    discount: money(o.discount, o.currency),
    deliveryFee: money(o.deliveryFee, o.currency),
    amount: money(o.amount, o.currency),
    currency: o.currency,
    deliveryMethod: o.deliveryMethod,
    paymentMethod: o.paymentMethod,
    paymentStatus: o.paymentStatus,
    isGuest: o.isGuest,
    customer: { name: o.customerName, phone: o.customerPhone, email: o.customerEmail },
    items: items.map((i) => ({
      productId: i.productId,
      name: i.name,
      price: money(i.price, o.currency),
      quantity: i.quantity,
    })),
    address: o.address,
    notes: o.notes,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export function serializeReview(r: Review) {
  return {
    id: r.id,
    productId: r.productId,
    rating: r.rating,
    comment: r.comment,
    authorName: r.authorName,
    createdAt: r.createdAt.toISOString(),
    reply:
      r.replyBody !== null && r.replyCreatedAt
        ? { body: r.replyBody, createdAt: r.replyCreatedAt.toISOString() }
        : null,
  };
}

export function serializePage(p: Page) {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    isPublished: p.isPublished,
    blocks: p.blocks.map((b) => ({
      id: b.id,
      kind: b.kind,
      type: b.type,
      ...(b.kind === "app" ? { appId: b.appId } : {}),
      settings: b.settings,
    })),
    updatedAt: p.updatedAt.toISOString(),
  };
}
