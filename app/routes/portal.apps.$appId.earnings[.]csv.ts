import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { appEarnings } from "~/platform/billing/earnings.server";
import { toMajorText } from "~/platform/core/money";

/** The Earnings page as CSV: one row per month and currency, minor units and the decimal amount. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "ADMIN");
  const { months } = await appEarnings(context.db, app.id);
  const rows = [
    "month,currency,gross_minor,fee_minor,net_minor,gross,fee,net",
    ...months.map((m) =>
      [
        m.month,
        m.currency,
        m.gross.amount,
        m.fee.amount,
        m.net.amount,
        ...[m.gross, m.fee, m.net].map((v) => toMajorText(v.amount, v.currency)),
      ].join(","),
    ),
  ];
  return new Response(rows.join("\n") + "\n", {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${app.slug}-earnings.csv"`,
    },
  });
}
