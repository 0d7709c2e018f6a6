/**
 * The checkout page's state: the delivery method on screen and the total for it, kept in step with
 * the shopper's choices (a fetcher asks the quote route again when the method or the address
 * changes; "Update total" does it without JavaScript), and "Place order" pressed while the total is
 * being refreshed, which waits for it rather than being swallowed.
 */
import { useFetcher, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { shopPath } from "~/components/storefront-blocks";
import type { CheckoutValues, QuoteView } from "~/routes/__checkout-quote.server";
import type { loader as quoteLoader } from "~/routes/s.$businessSlug.checkout.quote";

export function useCheckoutTotal({
  slug,
  loaded,
  answered,
  values,
}: {
  slug: string;
  /** the loader's total */
  loaded: QuoteView | null;
  /** the action's answer, when it showed the page again */
  answered: { quote?: QuoteView | null } | undefined;
  values: Partial<CheckoutValues>;
}) {
  // the delivery method on screen, and the total for it: the loader's, then the latest of the
  // action's ("Update total", a refused order) and the fetcher's (a change of method or address)
  const [method, setMethod] = useState<"DELIVERY" | "PICKUP">(
    values.deliveryMethod === "PICKUP" ? "PICKUP" : "DELIVERY",
  );
  const [shown, setShown] = useState<QuoteView | null>(answered?.quote ?? loaded);
  const fetcher = useFetcher<typeof quoteLoader>();
  useEffect(() => {
    if (answered?.quote) setShown(answered.quote);
  }, [answered]);
  useEffect(() => {
    if (fetcher.data) setShown(fetcher.data);
  }, [fetcher.data]);
  // with JavaScript the total follows the choices by itself; without it, "Update total" asks for it
  const [hydrated, setHydrated] = useState(false);
  const [address, setAddress] = useState(values.address ?? "");
  const [quotedAddress, setQuotedAddress] = useState(values.address ?? "");
  const requote = (deliveryMethod: "DELIVERY" | "PICKUP", addr: string) => {
    const query = new URLSearchParams({ deliveryMethod });
    if (deliveryMethod === "DELIVERY" && addr.trim()) query.set("address", addr.trim());
    setQuotedAddress(addr);
    fetcher.load(`${shopPath(slug, "/checkout/quote")}?${query}`);
  };
  // the radios and the address are left to the browser (uncontrolled), so that what a shopper chose
  // before the page was hydrated (a slow phone) stays; once hydrated, the total catches up with it
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setHydrated(true);
    const form = formRef.current;
    if (!form) return;
    const chosen =
      form.querySelector<HTMLInputElement>('input[name="deliveryMethod"]:checked')?.value === "PICKUP"
        ? "PICKUP"
        : "DELIVERY";
    const typed = (form.elements.namedItem("address") as HTMLTextAreaElement | null)?.value ?? "";
    setAddress(typed);
    if (chosen !== method || (chosen === "DELIVERY" && typed.trim() !== quotedAddress.trim())) {
      setMethod(chosen);
      requote(chosen, typed);
    }
    // once, at hydration
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const updating = fetcher.state !== "idle";
  const total = shown?.ok ? shown.total : null;

  // "Place order" pressed while the total is being refreshed (typing an address and clicking at once:
  // leaving the field asks for its total on the way to the button). The click is kept, never
  // swallowed: the page says it waits, and places the order when the total comes back, if it is
  // still the total the shopper saw; a different one is shown for the shopper to confirm.
  const submit = useSubmit();
  const [queued, setQueued] = useState<{ amount: number | null } | null>(null);
  const [changedTotal, setChangedTotal] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    setChangedTotal(null);
    if (submitter?.value === "quote" || !updating) return;
    event.preventDefault();
    setQueued({ amount: shown?.ok ? shown.amount : null });
  };
  useEffect(() => {
    if (!queued || updating) return;
    setQueued(null);
    // the total that just came back (`shown` catches up with it one render later)
    const latest = fetcher.data ?? shown;
    const form = formRef.current;
    if (!form || !latest?.ok) return; // the refusal that came back is on screen
    if (queued.amount !== latest.amount) return setChangedTotal(latest.total);
    const placed = new FormData(form);
    placed.set("intent", "place");
    placed.set("quotedAmount", String(latest.amount));
    submit(placed, { method: "post" });
  }, [queued, updating, fetcher.data, shown, submit]);
  const waiting = queued !== null;

  /** Delivery or pickup chosen: the total for it. */
  const chooseMethod = (value: "DELIVERY" | "PICKUP") => {
    setMethod(value);
    requote(value, address);
  };
  /** The address left: its total, when it changed (checkout.shipping_rates gets it as `locality`). */
  const leaveAddress = () => {
    if (method === "DELIVERY" && address.trim() !== quotedAddress.trim()) requote("DELIVERY", address);
  };

  return {
    method,
    shown,
    chooseMethod,
    setAddress,
    leaveAddress,
    hydrated,
    updating,
    total,
    formRef,
    onSubmit,
    waiting,
    changedTotal,
  };
}
