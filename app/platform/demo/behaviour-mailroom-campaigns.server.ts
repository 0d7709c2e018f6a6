/** The demo app Mailroom Campaigns (decision 062): a sign-up widget on the storefront, campaigns drafted from new dishes. */
import { api, settingsOf, text, when, list, recentOrders, type Behaviour } from "./behaviour-kit.server";

export const mailroom: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install)]);
    const customers = new Set(orders.map((o) => o.customer.email).filter(Boolean));
    const subscribers = list<any>(install.data, "subscribers");
    return {
      status: "Write to your customers about new dishes and offers.",
      facts: [
        ["Sender", text(settings.senderName, "your shop's name")],
        ["Customers with an e-mail", customers.size],
        ["Signed up on the storefront", subscribers.length],
      ],
      actions: [{ action: "draft", label: "Draft a campaign of the newest dishes" }],
      sections: [
        {
          title: "Campaigns",
          columns: ["When", "Subject", "Recipients"],
          rows: list<any>(install.data, "campaigns").map((c) => [when(c.at), c.subject, c.recipients]),
          empty: "No campaign yet.",
        },
        {
          title: "Sign-ups from the storefront widget",
          columns: ["When", "E-mail"],
          rows: subscribers.map((s) => [when(s.at), s.email]),
          empty: "Turn on the Newsletter sign-up embed (Apps → Mailroom Campaigns) to collect sign-ups.",
        },
      ],
    };
  },
  async act(ctx, install, action) {
    if (action !== "draft") return { notice: "Unknown action." };
    const [products, orders, business] = await Promise.all([
      api<{ data: { name: string }[] }>(ctx, install, "GET", "/app-api/products?limit=3"),
      recentOrders(ctx, install),
      api<{ name: string }>(ctx, install, "GET", "/app-api/business"),
    ]);
    const recipients = new Set([
      ...orders.map((o) => o.customer.email).filter((e): e is string => !!e),
      ...list<any>(install.data, "subscribers").map((s) => s.email as string),
    ]);
    const subject = `New at ${business.name}: ${products.data.map((p) => p.name).join(", ") || "our menu"}`;
    await ctx.store.append(install.businessId, "campaigns", {
      at: new Date().toISOString(),
      subject,
      recipients: recipients.size,
    });
    return { notice: `Campaign drafted for ${recipients.size} recipients (the demo sends no e-mail).` };
  },
};
