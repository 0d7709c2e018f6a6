/** The demo app Ready Text (decision 062): a text when an order is ready or out for delivery, paid per text. */
import { READY_TEXT_PLAN, TEXT_PRICE_CENTS } from "./demo-apps";
import type { DemoInstall } from "./demo-app-store.server";
import {
  AppApiFailure,
  api,
  settingsOf,
  text,
  formatMoney,
  when,
  list,
  type AppContext,
  type Behaviour,
  type Money,
  type Order,
} from "./behaviour-kit.server";

type Subscription = {
  id: string;
  status: string;
  planId: string;
  usageBalance?: Money | null;
  usageCap?: Money | null;
  currentPeriodEnd?: string | null;
};
const activePlan = async (ctx: AppContext, install: DemoInstall) =>
  (await api<{ data: Subscription[] }>(ctx, install, "GET", "/app-api/billing/subscriptions?limit=20")).data.find(
    (s) => s.status === "ACTIVE" && s.planId === READY_TEXT_PLAN,
  ) ?? null;

export function readyTextMessage(
  settings: Record<string, unknown>,
  status: string,
  name: string,
  orderNumber: string | number,
) {
  const template =
    status === "READY"
      ? text(settings.readyText, "Hi {name}, your order #{order} is ready!")
      : text(settings.deliveryText, "Hi {name}, your order #{order} is on its way.");
  return template.replaceAll("{name}", name).replaceAll("{order}", String(orderNumber));
}

export const readyText: Behaviour = {
  async view(ctx, install) {
    const plan = await activePlan(ctx, install);
    const texts = list<any>(install.data, "texts");
    return {
      status: plan
        ? "Customers get a text when their order is ready or out for delivery."
        : "Choose the Text Pro plan to start sending texts.",
      facts: plan
        ? [
            ["Plan", "Text Pro: $4.99 every 30 days + 5 cents per text"],
            ["Usage this period", `${formatMoney(plan.usageBalance!)} of ${formatMoney(plan.usageCap!)}`],
            ["Period ends", plan.currentPeriodEnd ? when(plan.currentPeriodEnd) : ""],
            ["Texts sent", texts.length],
          ]
        : [["Plan", "none"]],
      actions: plan ? [] : [{ action: "subscribe", label: "Choose Text Pro ($4.99 / 30 days)" }],
      sections: [
        {
          title: "Texts sent",
          columns: ["When", "Order", "To", "Message", "Charged"],
          rows: texts.map((t) => [when(t.at), `#${t.orderNumber}`, t.to, t.message, t.charged]),
          empty: "A text goes out when an order moves to Ready or In delivery.",
        },
      ],
    };
  },
  async act(ctx, install, action) {
    if (action !== "subscribe") return { notice: "Unknown action." };
    const sub = await api<{ confirmationUrl: string }>(ctx, install, "POST", "/app-api/billing/subscriptions", {
      planId: READY_TEXT_PLAN,
      returnUrl: `${ctx.appUrl}/billing/done`,
    });
    return { open: sub.confirmationUrl, notice: "Approve the plan in the tab that opened, then reload this page." };
  },
  async onWebhook(ctx, install, envelope) {
    if (envelope.event !== "order.status_changed") return;
    const data = envelope.data as { orderId: string; orderNumber: string | number; status: string };
    if (data.status !== "READY" && data.status !== "IN_DELIVERY") return;
    if (list<string>(install.data, "seen").includes(envelope.id)) return;
    const [order, settings, plan] = await Promise.all([
      api<Order>(ctx, install, "GET", `/app-api/orders/${encodeURIComponent(data.orderId)}`),
      settingsOf(ctx, install),
      activePlan(ctx, install),
    ]);
    const message = readyTextMessage(settings, data.status, order.customer.name, order.orderNumber);
    let charged = "no plan: not sent";
    if (plan) {
      // one text, one usage record; the delivery's id makes a redelivery charge nothing twice
      const usage = await api(
        ctx,
        install,
        "POST",
        `/app-api/billing/subscriptions/${plan.id}/usage`,
        { description: `Text for order #${order.orderNumber}`, amount: { amount: TEXT_PRICE_CENTS, currency: "USD" } },
        { "Idempotency-Key": envelope.id },
      ).then(
        () => formatMoney({ amount: TEXT_PRICE_CENTS, currency: "USD" }),
        (e: AppApiFailure) => (e.status === 409 ? "cap reached: not sent" : Promise.reject(e)),
      );
      charged = usage;
    }
    await ctx.store.append(
      install.businessId,
      "texts",
      {
        at: new Date().toISOString(),
        orderId: order.id,
        orderNumber: order.orderNumber,
        to: order.customer.phone,
        message,
        charged,
      },
      envelope.id,
    );
    ctx.say(`text for order #${order.orderNumber}: ${charged}`);
  },
};
