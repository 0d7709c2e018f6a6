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
