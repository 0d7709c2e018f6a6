/** The shopper's order messages and the merchant's new-order notice. */
import { Button, Footer, Heading, Link, Paragraph, Rows, Strong } from "../render";

export type OrderView = {
  shop: string;
  number: string;
  customerName: string;
  lines: { name: string; quantity: number; total: string }[];
  totals: { label: string; value: string }[];
  amount: string;
  statusLink: string;
};

const lines = (o: OrderView) => (
  <>
    <Rows caption="Items" rows={o.lines.map((l) => ({ label: `${l.quantity} × ${l.name}`, value: l.total }))} />
    <Rows
      caption="Totals"
      rows={[...o.totals, { label: "Total", value: o.amount, strong: true }]}
    />
  </>
);

export const orderConfirmation = (o: OrderView) => ({
  subject: `${o.shop}: order #${o.number} received`,
  preheader: `Thank you for your order at ${o.shop}: ${o.amount}.`,
  body: (
    <>
      <Heading>Thank you for your order</Heading>
      <Paragraph>
        Hello {o.customerName}, {o.shop} received your order <Strong>#{o.number}</Strong>.
      </Paragraph>
      {lines(o)}
      <Button href={o.statusLink}>See your order&apos;s status</Button>
      <Footer>You received this message because you placed an order at {o.shop}.</Footer>
    </>
  ),
});

export const orderCancelled = (o: OrderView) => ({
  subject: `${o.shop}: order #${o.number} cancelled`,
  preheader: `Your order #${o.number} at ${o.shop} was cancelled.`,
  body: (
    <>
      <Heading>Your order was cancelled</Heading>
      <Paragraph>
        Hello {o.customerName}, {o.shop} cancelled your order <Strong>#{o.number}</Strong>. Any payment taken will be
        returned by the shop.
      </Paragraph>
      {lines(o)}
      <Button href={o.statusLink}>See your order</Button>
      <Footer>You received this message because you placed an order at {o.shop}.</Footer>
    </>
  ),
});

export const orderFulfilled = (o: OrderView) => ({
  subject: `${o.shop}: order #${o.number} delivered`,
  preheader: `Your order #${o.number} at ${o.shop} was delivered.`,
  body: (
    <>
      <Heading>Your order was delivered</Heading>
      <Paragraph>
        Hello {o.customerName}, {o.shop} marked your order <Strong>#{o.number}</Strong> as delivered. Enjoy!
      </Paragraph>
      {lines(o)}
      <Button href={o.statusLink}>See your order</Button>
      <Footer>You received this message because you placed an order at {o.shop}.</Footer>
    </>
  ),
});

export const newOrder = (o: OrderView & { adminLink: string; settingsLink: string }) => ({
  subject: `New order #${o.number} at ${o.shop}: ${o.amount}`,
  preheader: `${o.customerName} ordered for ${o.amount}.`,
  body: (
    <>
      <Heading>New order #{o.number}</Heading>
      <Paragraph>
        {o.customerName} placed an order at {o.shop} for <Strong>{o.amount}</Strong>.
      </Paragraph>
      {lines(o)}
      <Button href={o.adminLink}>Open the order</Button>
      <Footer>
        You receive this because you chose &ldquo;New orders&rdquo;. <Link href={o.settingsLink}>Choose your e-mails</Link>
      </Footer>
    </>
  ),
});
