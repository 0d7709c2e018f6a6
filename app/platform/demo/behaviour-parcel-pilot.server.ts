/** The demo app Parcel Pilot (decision 062): the delivery fee at checkout (checkout.shipping_rates), labels for couriers. */
import {
  settingsOf,
  num,
  formatMoney,
  when,
  list,
  recentOrders,
  type Behaviour,
  type Money,
} from "./behaviour-kit.server";

export const parcelPilot: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install, 50)]);
    const currency = orders[0]?.amount.currency ?? "USD";
    const m = (amount: number) => formatMoney({ amount, currency });
    const free = num(settings.freeFromCents, 4000);
    const open = orders.filter(
      (o) => o.deliveryMethod === "DELIVERY" && !["DELIVERED", "CANCELLED"].includes(o.status),
    );
    return {
      status: "Parcel Pilot sets the delivery fee of every checkout on your storefront.",
      facts: [
        [
          "Delivery fee",
          settings.baseFeeCents === undefined ? "the platform's own fee" : m(num(settings.baseFeeCents, 0)),
        ],
        ["Per item", m(num(settings.perItemCents, 50))],
        ["Free delivery from", free > 0 ? m(free) : "never"],
        ["Pickup", "free"],
      ],
      sections: [
        {
          title: "Labels to print",
          columns: ["Order", "Customer", "Phone", "Address", "Items"],
          rows: open.map((o) => [
            `#${o.orderNumber}`,
            o.customer.name,
            o.customer.phone,
            o.address ?? "",
            o.items.reduce((s, i) => s + i.quantity, 0),
          ]),
          empty: "No delivery orders waiting.",
        },
        {
          title: "Latest fees quoted at checkout",
          columns: ["When", "Method", "Subtotal", "Fee"],
          rows: list<any>(install.data, "quotes").map((q) => [when(q.at), q.method, q.subtotal, q.fee]),
          empty: "Each checkout asks Parcel Pilot for its fee; they show here.",
        },
      ],
    };
  },
  async act() {
    return { notice: "Change the fees in the app's settings (Apps → Parcel Pilot)." };
  },
  async onHook(ctx, install, name, call) {
    if (name !== "shipping-rates") return undefined;
    const data = call.data as {
      deliveryMethod: string;
      items?: { quantity: number }[];
      subtotal: Money;
      builtInFee: Money;
    };
    const settings = await settingsOf(ctx, install);
    const items = (data.items ?? []).reduce((s, i) => s + i.quantity, 0);
    const free = num(settings.freeFromCents, 4000);
    let fee = 0;
    if (data.deliveryMethod === "DELIVERY" && !(free > 0 && data.subtotal.amount >= free))
      fee = num(settings.baseFeeCents, data.builtInFee.amount) + items * num(settings.perItemCents, 50);
    const answer = { fee: { amount: fee, currency: data.subtotal.currency } };
    await ctx.store.append(install.businessId, "quotes", {
      at: new Date().toISOString(),
      method: data.deliveryMethod,
      subtotal: formatMoney(data.subtotal),
      fee: formatMoney(answer.fee),
    });
    return answer;
  },
};
