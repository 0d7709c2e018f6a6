/** Notifications to developers and merchants: review outcome, a disabled webhook, a privacy request done. */
import { Button, Footer, Heading, Link, Paragraph, Rows, Strong } from "../render";

const why = (what: string, settingsLink: string) => (
  <Footer>
    You receive this because you chose &ldquo;{what}&rdquo;. <Link href={settingsLink}>Choose your e-mails</Link>
  </Footer>
);

export const reviewOutcome = (p: {
  appName: string;
  approved: boolean;
  notes: string;
  link: string;
  settingsLink: string;
}) => ({
  subject: `${p.appName} was ${p.approved ? "approved" : "not approved"}`,
  preheader: p.approved ? `${p.appName} is approved.` : `${p.appName} needs changes before approval.`,
  body: (
    <>
      <Heading>
        {p.appName} was {p.approved ? "approved" : "not approved"}
      </Heading>
      <Paragraph>
        {p.approved
          ? "The reviewer approved your app. Merchants can install this version now."
          : "The reviewer did not approve this version. Change what the notes say and submit it again."}
      </Paragraph>
      <Paragraph>
        <Strong>Reviewer&apos;s notes:</Strong> {p.notes || "(none)"}
      </Paragraph>
      <Button href={p.link}>Open the app</Button>
      {why("App review outcomes", p.settingsLink)}
    </>
  ),
});

export const webhookDisabled = (p: {
  appName: string;
  url: string;
  lastError: string;
  link: string;
  settingsLink: string;
}) => ({
  subject: `A webhook of ${p.appName} was disabled`,
  preheader: `Deliveries to ${p.url} kept failing; the registration is disabled.`,
  body: (
    <>
      <Heading>A webhook registration was disabled</Heading>
      <Paragraph>
        Deliveries of {p.appName} to this address failed again and again, so the registration was disabled and no more
        events are sent to it.
      </Paragraph>
      <Rows
        caption="Registration"
        rows={[
          { label: "URL", value: p.url },
          { label: "Last error", value: p.lastError || "(none recorded)" },
        ]}
      />
      <Paragraph>
        To enable it again, fix the endpoint, then turn the registration on in the developer portal (or send{" "}
        <Strong>
          PATCH /webhooks/&lt;id&gt; {"{"}&quot;isActive&quot;: true{"}"}
        </Strong>{" "}
        with the app&apos;s token); failed deliveries can be sent again from its delivery log.
      </Paragraph>
      <Button href={p.link}>Open the app&apos;s webhooks</Button>
      {why("Webhook registrations disabled after failures", p.settingsLink)}
    </>
  ),
});

export const privacyDone = (p: {
  kind: "EXPORT" | "ERASE";
  orders: number;
  reviews: number;
  link: string;
  settingsLink: string;
}) => ({
  subject: p.kind === "ERASE" ? "A shopper's data was erased" : "A shopper's data export is ready",
  preheader: `${p.orders} orders and ${p.reviews} reviews.`,
  body: (
    <>
      <Heading>{p.kind === "ERASE" ? "The erasure is done" : "The export is ready"}</Heading>
      <Paragraph>
        {p.kind === "ERASE"
          ? `The shopper's name, e-mail, address and phone were replaced in ${p.orders} orders and ${p.reviews} reviews, and the installed apps were told.`
          : `The export covers ${p.orders} orders and ${p.reviews} reviews; the installed apps were told.`}
      </Paragraph>
      <Button href={p.link}>Open Customer privacy</Button>
      {why("Customer privacy requests done", p.settingsLink)}
    </>
  ),
});
