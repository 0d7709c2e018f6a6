/** The marketplace's price words (contract 13): "From …" compares prices within one currency only (decision 050). */
import { describe, expect, it } from "vitest";
import { planIn, PricingInput, pricingSummary } from "../shapes/pricing";

const plans = (input: unknown[]) => PricingInput.parse(input).map(planIn);
const monthly = (id: string, amount: number, currency: string) => ({
  id,
  name: id,
  kind: "RECURRING",
  price: { amount, currency },
  interval: "EVERY_30_DAYS",
});

describe("pricingSummary", () => {
  it("names the cheapest plan of each currency, never comparing minor units across currencies", () => {
    // 500 US cents ($5.00) and 600 yen (¥600): the numbers say nothing about which is cheaper
    expect(pricingSummary(plans([monthly("us", 500, "USD"), monthly("jp", 600, "JPY")]))).toEqual({
      price: "From $5.00/month or ¥600/month",
      trial: null,
    });
    // within a currency the cheapest wins, whatever the order
    expect(
      pricingSummary(
        plans([monthly("jp-big", 3000, "JPY"), monthly("us-big", 2999, "USD"), monthly("us", 999, "USD")]),
      ),
    ).toEqual({ price: "From ¥3,000/month or $9.99/month", trial: null });
    expect(pricingSummary(plans([{ id: "free", name: "Free", kind: "FREE" }, monthly("eu", 899, "EUR")]))?.price).toBe(
      "Free plan; paid from €8.99/month",
    );
    expect(pricingSummary(plans([monthly("us", 999, "USD")]))?.price).toBe("From $9.99/month");
  });
});
