/**
 * Who may (contract 17; docs/architecture.md "Who may"): the permissions of a business's members
 * and the roles of an app's members, with the words people see. Shared by the server (the guards)
 * and the pages (the Staff form, the navigation); the codes stay in the API.
 */

export const PERMISSIONS = ["orders", "products", "pages", "apps", "billing", "privacy", "settings", "staff"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<Permission, { label: string; description: string }> = {
  orders: { label: "Orders", description: "See and update orders, export them" },
  products: { label: "Products", description: "Products, stock and reviews" },
  pages: { label: "Site pages", description: "The site builder" },
  apps: { label: "Apps", description: "Install and uninstall apps, their settings, embeds and charges" },
  billing: { label: "Billing", description: "Apps' subscriptions and invoices" },
  privacy: { label: "Customer privacy", description: "Customers' data requests" },
  settings: { label: "Settings", description: "The business's details" },
  staff: { label: "Staff", description: "Invite, change and remove staff" },
};

export const isPermission = (value: unknown): value is Permission =>
  typeof value === "string" && (PERMISSIONS as readonly string[]).includes(value);

/**
 * The person acting for a business, read with the session on every request: the account, its
 * business, whether it owns it (every permission), and its permissions. The acting account id is
 * what an action is attributed to (contract 18's activity log).
 */
export type Member = { accountId: string; businessId: string; owner: boolean; permissions: Permission[] };

/** A member from an account's row: `staffPermissions` null is the owner, who has every permission. */
export function memberOf(account: {
  id: string;
  businessId: string | null;
  staffPermissions: string[] | null;
}): Member | null {
  if (!account.businessId) return null;
  const owner = account.staffPermissions === null;
  return {
    accountId: account.id,
    businessId: account.businessId,
    owner,
    permissions: owner ? [...PERMISSIONS] : PERMISSIONS.filter((p) => account.staffPermissions!.includes(p)),
  };
}

/** `true` when the member may use what the permission covers (`null`: anything a member may use). */
export const may = (member: Pick<Member, "permissions"> | null, permission: Permission | null): boolean =>
  member !== null && (permission === null || member.permissions.includes(permission));

/** The refusal's words, the same for pages and JSON: it names the missing permission. */
export const missingPermissionMessage = (permission: Permission) =>
  `This needs the "${permission}" permission (${PERMISSION_LABELS[permission].label}); ask the business's owner or a member with "staff" for it.`;

// ---------------------------------------------------------------------------------------------
// Apps' members

export const APP_ROLES = ["OWNER", "ADMIN", "DEVELOPER", "VIEWER"] as const;
export type AppRole = (typeof APP_ROLES)[number];

const RANK: Record<AppRole, number> = { VIEWER: 0, DEVELOPER: 1, ADMIN: 2, OWNER: 3 };

/** `true` when `role` is at least `needed` (VIEWER < DEVELOPER < ADMIN < OWNER). */
export const appRoleAtLeast = (role: AppRole, needed: AppRole) => RANK[role] >= RANK[needed];

export const APP_ROLE_LABELS: Record<AppRole, { label: string; description: string }> = {
  OWNER: { label: "Owner", description: "Created the app; everything an admin may, and cannot be removed" },
  ADMIN: {
    label: "Admin",
    description: "Also rotates secrets, submits for review, sets pricing, reads earnings, manages members",
  },
  DEVELOPER: { label: "Developer", description: "Also edits the manifest, webhooks and test installs, and listens" },
  VIEWER: { label: "Viewer", description: "Reads the app, its logs and analytics, never a secret" },
};

export const missingAppRoleMessage = (needed: AppRole) =>
  `This needs the ${needed} role (or higher) on this app; ask its owner or an admin.`;
