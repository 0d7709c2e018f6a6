import { Form, Link, useLocation } from "@remix-run/react";
import { CsrfInput } from "./csrf";

/** On every page of the admin and the portal until the account has verified its address (contract 16). */
export function VerifyEmailBanner({ email }: { email: string }) {
  const location = useLocation();
  return (
    <div className="alert warning" role="note" data-testid="verify-banner">
      <span>
        <strong>Confirm your e-mail address.</strong> We sent a link to {email}.{" "}
        <Link to="/account/emails">E-mail settings</Link>
      </span>{" "}
      <Form method="post" action="/verify-email" style={{ display: "inline" }}>
        <CsrfInput />
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" className="button small">
          Send a new link
        </button>
      </Form>
    </div>
  );
}
