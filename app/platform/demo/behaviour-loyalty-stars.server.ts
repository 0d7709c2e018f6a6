/** The demo app Loyalty Stars (decision 062): points for every order, a stamp card block and a points badge embed. */
import { settingsOf, num, text, when, list, recentOrders, type Behaviour, type Order } from "./behaviour-kit.server";

export const loyaltyStars: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install)]);
    const perUnit = num(settings.pointsPerUnit, 10);
    const rewardAt = num(settings.rewardAt, 500);
    const members = new Map<string, { name: string; orders: number; points: number }>();
    for (const o of orders) {
      if (o.status === "CANCELLED") continue;
      const key = (o.customer.email ?? o.customer.phone ?? o.customer.name).toLowerCase();
      const m = members.get(key) ?? { name: o.customer.name, orders: 0, points: 0 };
      m.orders++;
      m.points += Math.floor((o.amount.amount / 100) * perUnit);
      members.set(key, m);
    }
    const top = [...members.values()].sort((a, b) => b.points - a.points).slice(0, 10);
    return {
      status: `Stars for ${members.size} customers, from their last ${orders.length} orders.`,
      facts: [
        ["Stars per 1.00 spent", perUnit],
        ["Reward at", `${rewardAt} stars: ${text(settings.rewardText, "a free dessert")}`],
        ["Stars issued", top.reduce((s, m) => s + m.points, 0)],
        ["On the storefront", "the Stamp card block (Site pages) and the Points badge embed"],
      ],
      sections: [
        {
          title: "Top members",
          columns: ["Customer", "Orders", "Stars", "Reward"],
          rows: top.map((m) => [
            m.name,
            m.orders,
            m.points,
            m.points >= rewardAt ? "Ready" : `${rewardAt - m.points} to go`,
          ]),
          empty: "No orders yet: stars come with the first one.",
        },
        {
          title: "Stars awarded since install",
          columns: ["When", "Order", "Customer", "Stars"],
          rows: list<any>(install.data, "awards").map((a) => [when(a.at), `#${a.orderNumber}`, a.customer, a.points]),
          empty: "Each new order awards stars here (order.created webhook).",
        },
      ],
    };
  },
  async act() {
    return { notice: "Nothing to do here: stars are awarded by themselves." };
  },
  async onWebhook(ctx, install, envelope) {
    if (envelope.event !== "order.created") return;
    const order = envelope.data as unknown as Order;
    const settings = await settingsOf(ctx, install);
    const points = Math.floor((order.amount.amount / 100) * num(settings.pointsPerUnit, 10));
    const entry = {
      at: new Date().toISOString(),
      orderId: order.id,
      orderNumber: order.orderNumber,
      customer: order.customer.name,
      points,
    };
    await ctx.store.append(install.businessId, "awards", entry, envelope.id);
  },
};
