/** The demo app Counter Sync (decision 062): the till and the online menu in step; new orders accepted at the till. */
import { api, settingsOf, text, formatMoney, recentOrders, type Behaviour, type Order } from "./behaviour-kit.server";

export const counterSync: Behaviour = {
  async view(ctx, install) {
    const [settings, products, orders] = await Promise.all([
      settingsOf(ctx, install),
      api<{ data: any[]; total: number }>(ctx, install, "GET", "/app-api/products?limit=20"),
      recentOrders(ctx, install),
    ]);
    const pending = orders.filter((o) => o.status === "PENDING");
    return {
      status: `Synced with the till "${text(settings.tillName, "Front counter")}".`,
      facts: [
        ["Dishes on the menu", products.total],
        ["New orders waiting for the till", pending.length],
      ],
      sections: [
        {
          title: "New orders",
          columns: ["Order", "Customer", "Amount", ""],
          rows: pending.map((o) => [
            `#${o.orderNumber}`,
            o.customer.name,
            formatMoney(o.amount),
            { action: "accept", args: { orderId: o.id }, label: "Accept at the till" },
          ]),
          empty: "No new orders.",
        },
        {
          title: "Menu at the till",
          columns: ["Dish", "Price", "Stock", "Status"],
          rows: products.data.map((p) => [p.name, formatMoney(p.price), p.stock ?? "untracked", p.status]),
        },
      ],
    };
  },
  async act(ctx, install, action, args) {
    if (action !== "accept" || typeof args.orderId !== "string") return { notice: "Unknown action." };
    const order = await api<Order>(
      ctx,
      install,
      "PATCH",
      `/app-api/orders/${encodeURIComponent(args.orderId)}/status`,
      {
        status: "CONFIRMED",
      },
    );
    await ctx.store.append(install.businessId, "accepted", {
      at: new Date().toISOString(),
      orderNumber: order.orderNumber,
    });
    return { notice: `Order #${order.orderNumber} accepted at the till (now ${order.status}).` };
  },
};
