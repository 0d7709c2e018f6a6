/** The account's own messages: verify the address, reset the password, an invitation. */
import { Button, Footer, Heading, Paragraph, Strong } from "../render";

export const verifyEmail = (p: { name: string; link: string }) => ({
  subject: "Confirm your e-mail address",
  preheader: "One click confirms this address for your Storefront Apps account.",
  body: (
    <>
      <Heading>Confirm your e-mail address</Heading>
      <Paragraph>Hello {p.name}, please confirm that this address is yours.</Paragraph>
      <Button href={p.link}>Confirm my address</Button>
      <Footer>The link works once, for 24 hours. If you did not create an account, ignore this message.</Footer>
    </>
  ),
});

export const passwordReset = (p: { name: string; link: string }) => ({
  subject: "Reset your password",
  preheader: "A link to choose a new password, valid for one hour.",
  body: (
    <>
      <Heading>Reset your password</Heading>
      <Paragraph>Hello {p.name}, someone (we hope you) asked to reset the password of this account.</Paragraph>
      <Button href={p.link}>Choose a new password</Button>
      <Paragraph>
        Choosing a new password signs out every session and token of the account. The link works once, for one hour.
      </Paragraph>
      <Footer>If you did not ask for this, ignore this message: your password stays as it is.</Footer>
    </>
  ),
});

export const invitation = (p: { inviter: string; to: string; role: string; link: string }) => ({
  subject: `${p.inviter} invited you to ${p.to}`,
  preheader: `Join ${p.to} on Storefront Apps.`,
  body: (
    <>
      <Heading>You are invited to {p.to}</Heading>
      <Paragraph>
        {p.inviter} invited you to join <Strong>{p.to}</Strong> as {p.role}.
      </Paragraph>
      <Button href={p.link}>Accept the invitation</Button>
      <Footer>The invitation works once, for 7 days. If you did not expect it, ignore this message.</Footer>
    </>
  ),
});
