import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { AreaLayout, type NavItem } from "~/components/area-layout";
import { ShopFormatProvider } from "~/components/shop-format";
import { businessAdminPages } from "~/platform/extensions/merchant.server";
import type { Permission } from "~/platform/accounts/permissions";
import { VerifyEmailBanner } from "~/components/verify-banner";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business, sandbox, member } = await requireMerchant(request, context, null);
  const appPages = await businessAdminPages(context.db, business.id);
  return json({
    businessName: business.name,
    // the navigation shows only what the member may use (contract 17); the pages refuse the rest
    permissions: member.permissions,
    you: { name: account.name, owner: member.owner },
    // every page of the admin writes dates and money in the shop's units (components/shop-format.tsx)
    units: { locale: business.locale, timeZone: business.timezone, currency: business.currency },
    // until the address is verified, a banner with a way to send the link again (contract 16)
    unverifiedEmail: account.emailVerifiedAt ? null : account.email,
    // a developer in their own sandbox business (decision 036): marked on every page
    sandbox: sandbox ? { developer: account.name } : null,
    appPages: appPages.map((p) => ({
      to: `/admin/ext/${p.installationId}/${p.pageId}`,
      label: p.title,
      // the page's icon name, else the app's icon
      icon: p.iconName ? p.iconName.slice(0, 1).toUpperCase() : undefined,
      iconUrl: !p.iconName && p.appIconUrl && /^https?:\/\//.test(p.appIconUrl) ? p.appIconUrl : null,
    })),
  });
}

/** Each item with the permission its page declares (null: every member). */
const ITEMS: (NavItem & { permission: Permission | null })[] = [
  { to: "/admin", label: "Dashboard", end: true, icon: "▦", permission: null },
  { to: "/admin/orders", label: "Orders", icon: "☰", permission: "orders" },
  { to: "/admin/products", label: "Products", icon: "◈", permission: "products" },
  { to: "/admin/reviews", label: "Reviews", icon: "★", permission: "products" },
  { to: "/admin/pages", label: "Site pages", icon: "❏", permission: "pages" },
  { to: "/admin/apps", label: "Apps", icon: "▣", permission: "apps" },
  { to: "/admin/billing", label: "Billing", icon: "¤", permission: "billing" },
  { to: "/admin/privacy", label: "Customer privacy", icon: "◐", permission: "privacy" },
  { to: "/admin/staff", label: "Staff", icon: "☺", permission: "staff" },
  { to: "/admin/activity", label: "Activity", icon: "≡", permission: "staff" },
  { to: "/admin/settings", label: "Settings", icon: "⚙", permission: "settings" },
  { to: "/admin/emails", label: "E-mails", icon: "✉", permission: "settings" },
  // the account's own sign-in: second factors, passkeys, sessions (contract 18)
  { to: "/account/security", label: "Security", icon: "◎", permission: null },
];

export default function AdminLayout() {
  const { businessName, appPages, sandbox, permissions, unverifiedEmail, units } = useLoaderData<typeof loader>();
  const items = ITEMS.filter((i) => i.permission === null || (permissions as string[]).includes(i.permission)).map(
    ({ permission: _p, ...item }) => item,
  );
  return (
    <ShopFormatProvider units={units}>
      <AreaLayout
        title={sandbox ? "Sandbox admin" : "Admin"}
        subtitle={businessName}
        badge={sandbox ? "Sandbox" : undefined}
        items={sandbox ? [...items, { to: "/portal", label: "Back to the portal", icon: "←" }] : items}
        extra={{ heading: "App pages", items: appPages }}
        notice={
          <>
            {unverifiedEmail ? <VerifyEmailBanner email={unverifiedEmail} /> : null}
            {sandbox ? <SandboxBanner developer={sandbox.developer} /> : null}
          </>
        }
      />
    </ShopFormatProvider>
  );
}

/** On every page of a developer's sandbox admin: whose shop this is, and the way back to the portal. */
function SandboxBanner({ developer }: { developer: string }) {
  return (
    <p className="alert warning sandbox-banner" role="note" data-testid="sandbox-banner">
      <span>
        <strong>Sandbox of {developer}</strong> — test data, no real shoppers. Your test installations&apos; blocks and
        embeds can be placed here without review.
      </span>
      <Link to="/portal" className="button small">
        ← Developer portal
      </Link>
    </p>
  );
}
