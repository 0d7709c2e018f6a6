/** The account's security notices (contract 18): a sign-in from a new device, a second-factor change. */
import { Button, Footer, Heading, Paragraph, Rows } from "../render";

export const newDeviceSignIn = (p: { name: string; device: string; ip: string; at: string; link: string }) => ({
  subject: "New sign-in to your account",
  preheader: `Someone signed in from ${p.device}.`,
  body: (
    <>
      <Heading>A new sign-in to your account</Heading>
      <Paragraph>Hello {p.name}, your account was just signed in to from a device it had not used before.</Paragraph>
      <Rows
        caption="The sign-in"
        rows={[
          { label: "Device", value: p.device },
          { label: "Address", value: p.ip || "unknown" },
          { label: "When", value: p.at },
        ]}
      />
      <Paragraph>
        If it was you, there is nothing to do. If not, end that session now and change your password.
      </Paragraph>
      <Button href={p.link}>End this session</Button>
      <Footer>This notice is always sent: it keeps your account safe.</Footer>
    </>
  ),
});

const CHANGES: Record<string, string> = {
  totp_enrolled: "An authenticator app was added",
  totp_removed: "The authenticator app was removed",
  recovery_codes_regenerated: "New recovery codes were made (the old ones no longer work)",
  recovery_code_used: "A recovery code was used to sign in",
  passkey_added: "A passkey was added",
  passkey_removed: "A passkey was removed",
};

export const secondFactorChanged = (p: { name: string; change: string; detail: string; at: string; link: string }) => ({
  subject: "Your sign-in security changed",
  preheader: CHANGES[p.change] ?? "A second factor of your account changed.",
  body: (
    <>
      <Heading>Your sign-in security changed</Heading>
      <Paragraph>
        Hello {p.name}. {CHANGES[p.change] ?? "A second factor of your account changed"}
        {p.detail ? ` (${p.detail})` : ""}, at {p.at}.
      </Paragraph>
      <Paragraph>If it was not you, end the session that did it and change your password.</Paragraph>
      <Button href={p.link}>End that session</Button>
      <Footer>This notice is always sent: it keeps your account safe.</Footer>
    </>
  ),
});
