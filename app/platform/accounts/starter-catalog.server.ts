/**
 * Demo catalogue for a business: products (most with untracked stock), orders in every status,
 * reviews and pages. Used for the Demo Bistro and for every developer's sandbox business, so that
 * a test install has data to read (contract section 1).
 */
import type { Db } from "../../../db/client";
import {
  businesses,
  orderItems,
  orders,
  orderStatusChanges,
  pages,
  products,
  reviews,
  ORDER_STATUSES,
  type PageBlock,
} from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { eq } from "drizzle-orm";
import { shopWords } from "./shop-words";

const MENU: [name: string, category: string, price: number, description: string][] = [
  ["Margherita Pizza", "Pizza", 1150, "Tomato, mozzarella, fresh basil"],
  ["Pepperoni Pizza", "Pizza", 1350, "Spicy pepperoni and mozzarella"],
  ["Four Cheese Pizza", "Pizza", 1450, "Mozzarella, gorgonzola, parmesan, fontina"],
  ["Veggie Pizza", "Pizza", 1250, "Peppers, mushrooms, olives, onions"],
  ["Caesar Salad", "Salads", 950, "Romaine, parmesan, croutons, caesar dressing"],
  ["Greek Salad", "Salads", 900, "Tomato, cucumber, feta, olives"],
  ["Quinoa Bowl", "Salads", 1100, "Quinoa, avocado, chickpeas, tahini"],
  ["Spaghetti Carbonara", "Pasta", 1300, "Guanciale, egg yolk, pecorino"],
  ["Penne Arrabbiata", "Pasta", 1050, "Tomato, garlic, chili"],
  ["Lasagna", "Pasta", 1400, "Beef ragù, béchamel, parmesan"],
  ["Mushroom Risotto", "Pasta", 1350, "Arborio rice, porcini, parmesan"],
  ["Classic Burger", "Burgers", 1200, "Beef patty, cheddar, pickles"],
  ["Chicken Burger", "Burgers", 1150, "Crispy chicken, slaw, mayo"],
  ["Veggie Burger", "Burgers", 1100, "Black bean patty, avocado"],
  ["French Fries", "Sides", 450, "Hand-cut, sea salt"],
  ["Sweet Potato Fries", "Sides", 550, "With chipotle mayo"],
  ["Garlic Bread", "Sides", 400, "Toasted with garlic butter"],
  ["Tiramisu", "Desserts", 700, "Mascarpone, espresso, cocoa"],
  ["Chocolate Lava Cake", "Desserts", 750, "Warm, with vanilla ice cream"],
  ["Panna Cotta", "Desserts", 650, "With berry coulis"],
  ["Lemonade", "Drinks", 350, "Freshly squeezed"],
  ["Iced Tea", "Drinks", 300, "Peach or lemon"],
  ["Espresso", "Drinks", 250, "Double shot"],
  ["Sparkling Water", "Drinks", 200, "500 ml"],
];

const CUSTOMERS = [
  "Ana Silva",
  "Ben Carter",
  "Chloé Martin",
  "Dmitri Ivanov",
  "Emma Jones",
  "Farid Haddad",
  "Grace Lee",
  "Hugo Weber",
  "Isla Brown",
  "Jonas Berg",
];
const COMMENTS = [
  [5, "Absolutely delicious, will order again!"],
  [4, "Very good, arrived warm."],
  [5, "Best in town."],
  [3, "Decent, a little salty."],
  [4, "Great portion size."],
  [2, "Took too long to arrive."],
  [5, "Perfect every time."],
  [4, "Tasty and fresh."],
  [1, "Order was cold."],
  [5, "Lovely flavours."],
] as const;

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A new shop's home page: a welcome in the words of its kind (decision 061), and its newest products. */
export function defaultHomePage(businessName: string, kind: string): PageBlock[] {
  return [
    { id: newId("blk", 12), kind: "builtin", type: "heading", settings: { text: `Welcome to ${businessName}` } },
    { id: newId("blk", 12), kind: "builtin", type: "text", settings: { text: shopWords(kind).welcome } },
    { id: newId("blk", 12), kind: "builtin", type: "product-grid", settings: { limit: 8 } },
  ];
}

/** Creates the demo catalogue. Timestamps spread over the last 30 days, newest last. */
export async function seedBusinessCatalog(db: Db, business: { id: string; name: string; currency: string }) {
  const t = now().getTime();
  const day = 24 * 3600 * 1000;
  const productRows = MENU.map(([name, category, price, description], i) => ({
    id: newId("prd"),
    businessId: business.id,
    name,
    slug: slugify(name),
    description,
    price,
    category,
    // a few tracked-stock products: one out of stock, one low
    stock: i === 3 ? 0 : i === 7 ? 3 : i === 12 ? 40 : null,
    isAvailable: i !== 3,
    imageUrl: `/images/products/${slugify(category)}.svg`,
    status: "ACTIVE" as const,
    createdAt: new Date(t - (40 - i) * day),
    updatedAt: new Date(t - (40 - i) * day),
  }));
  await db.insert(products).values(productRows);

  const orderRows: (typeof orders.$inferInsert)[] = [];
  const itemRows: (typeof orderItems.$inferInsert)[] = [];
  const changeRows: (typeof orderStatusChanges.$inferInsert)[] = [];
  for (let i = 0; i < 30; i++) {
    const status = ORDER_STATUSES[i % ORDER_STATUSES.length];
    const createdAt = new Date(t - (29 - i) * day - ((i * 37) % 600) * 60_000);
    const lines = [productRows[(i * 5) % productRows.length], productRows[(i * 7 + 3) % productRows.length]];
    const qty = [1 + (i % 3), 1];
    const subtotal = lines.reduce((s, p, k) => s + p.price * qty[k], 0);
    const delivery = i % 2 === 0 ? "DELIVERY" : "PICKUP";
    const deliveryFee = delivery === "DELIVERY" ? 300 : 0;
    const id = newId("ord");
    orderRows.push({
      id,
      businessId: business.id,
      orderNumber: String(1001 + i),
      status,
      subtotal,
      discount: 0,
      deliveryFee,
      amount: subtotal + deliveryFee,
      currency: business.currency,
      deliveryMethod: delivery,
      paymentMethod: i % 3 === 0 ? "CASH" : "CARD",
      paymentStatus: status === "CANCELLED" ? "NONE" : i % 3 === 0 ? "NONE" : "COMPLETED",
      isGuest: true,
      customerName: CUSTOMERS[i % CUSTOMERS.length],
      customerPhone: `+1 555 01${String(i).padStart(2, "0")}`,
      customerEmail: `${slugify(CUSTOMERS[i % CUSTOMERS.length])}@example.com`,
      address: delivery === "DELIVERY" ? `${10 + i} Market Street` : null,
      notes: i % 4 === 0 ? "Extra napkins, please" : null,
      createdAt,
      updatedAt: createdAt,
    });
    lines.forEach((p, k) =>
      itemRows.push({ id: newId("itm"), orderId: id, productId: p.id, name: p.name, price: p.price, quantity: qty[k] }),
    );
    changeRows.push({
      id: newId("osc"),
      orderId: id,
      fromStatus: null,
      toStatus: "PENDING",
      actor: "customer",
      createdAt,
    });
    if (status !== "PENDING")
      changeRows.push({
        id: newId("osc"),
        orderId: id,
        fromStatus: "PENDING",
        toStatus: status,
        actor: "merchant",
        createdAt,
      });
  }
  await db.insert(orders).values(orderRows);
  await db.insert(orderItems).values(itemRows);
  await db.insert(orderStatusChanges).values(changeRows);
  await db.update(businesses).set({ lastOrderNumber: 1030 }).where(eq(businesses.id, business.id));

  await db.insert(reviews).values(
    Array.from({ length: 15 }, (_, i) => ({
      id: newId("rev"),
      businessId: business.id,
      productId: productRows[(i * 3) % productRows.length].id,
      rating: COMMENTS[i % COMMENTS.length][0],
      comment: COMMENTS[i % COMMENTS.length][1],
      authorName: CUSTOMERS[(i + 3) % CUSTOMERS.length],
      createdAt: new Date(t - (15 - i) * day),
    })),
  );

  const ts = new Date(t);
  await db.insert(pages).values([
    {
      id: newId("pg"),
      businessId: business.id,
      slug: "home",
      title: "Home",
      isPublished: true,
      blocks: defaultHomePage(business.name, "RESTAURANT"),
      createdAt: ts,
      updatedAt: ts,
    },
    {
      id: newId("pg"),
      businessId: business.id,
      slug: "about",
      title: "About us",
      isPublished: true,
      createdAt: ts,
      updatedAt: ts,
      blocks: [
        { id: newId("blk", 12), kind: "builtin", type: "heading", settings: { text: "Our story" } },
        {
          id: newId("blk", 12),
          kind: "builtin",
          type: "text",
          settings: { text: `${business.name} has served the neighbourhood since 2012.` },
        },
      ],
    },
    {
      id: newId("pg"),
      businessId: business.id,
      slug: "contact",
      title: "Contact",
      isPublished: true,
      createdAt: ts,
      updatedAt: ts,
      blocks: [
        {
          id: newId("blk", 12),
          kind: "builtin",
          type: "text",
          settings: { text: "Call us or drop by: we are open every day from 11:00 to 22:00." },
        },
      ],
    },
  ]);
}
