/** The demo data's accounts (printed by `npm start`). */
export const DEMO_LOGINS = [
  {
    role: "MERCHANT",
    email: "merchant@demo.test",
    password: "demo-merchant-1",
    name: "Maria Rossi",
    businessName: "Demo Bistro",
  },
  { role: "DEVELOPER", email: "developer@demo.test", password: "demo-developer-1", name: "Dev Demo" },
  { role: "REVIEWER", email: "reviewer@demo.test", password: "demo-reviewer-1", name: "Rita Reviewer" },
] as const;

/**
 * The demo reviewer's TOTP secret (decision 072: platform staff always sign in with a second factor).
 * Public on purpose, like the demo passwords: add it to an authenticator app, or compute the code
 * (`otpauth`, SHA-1, 6 digits, 30 s). Never a secret of a real deployment: only the demo data has it.
 */
export const DEMO_REVIEWER_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
