/** The demo app Sales Pulse (decision 062): which dishes sell, and when. */
import { api, settingsOf, num, formatMoney, type Behaviour } from "./behaviour-kit.server";

export const salesPulse: Behaviour = {
  async view(ctx, install) {
    const [settings, d] = await Promise.all([
      settingsOf(ctx, install),
      api<any>(ctx, install, "GET", "/app-api/analytics/dashboard"),
    ]);
    return {
      status: "Your shop's pulse, from the platform's figures.",
      facts: [
        ["Orders today", `${d.today.orders} (${formatMoney(d.today.revenue)})`],
        ["Orders in the last 30 days", `${d.last30Days.orders} (${formatMoney(d.last30Days.revenue)})`],
        ["Average order", formatMoney(d.averageOrderValue)],
        ["Daily digest", `at ${String(num(settings.digestHour, 8)).padStart(2, "0")}:00`],
      ],
      sections: [
        {
          title: "Best sellers",
          columns: ["Dish", "Sold", "Revenue"],
          rows: (d.topProducts as any[]).map((p) => [p.name, p.quantity, formatMoney(p.revenue)]),
          empty: "No sales yet.",
        },
        {
          title: "Orders by status",
          columns: ["Status", "Orders"],
          rows: Object.entries(d.ordersByStatus as Record<string, number>).map(([s, n]) => [s, n]),
        },
      ],
    };
  },
  async act() {
    return { notice: "Sales Pulse only reads: nothing to do." };
  },
};
