import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { AreaLayout, type NavItem } from "~/components/area-layout";
import { businessAdminPages } from "~/platform/extensions/merchant.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business, sandbox } = await requireMerchant(request, context, null);
  const appPages = await businessAdminPages(context.db, business.id);
  return json({
    businessName: business.name,
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

const ITEMS: NavItem[] = [
  { to: "/admin", label: "Dashboard", end: true, icon: "▦" },
  { to: "/admin/orders", label: "Orders", icon: "☰" },
  { to: "/admin/products", label: "Products", icon: "◈" },
  { to: "/admin/reviews", label: "Reviews", icon: "★" },
  { to: "/admin/pages", label: "Site pages", icon: "❏" },
  { to: "/admin/apps", label: "Apps", icon: "▣" },
  { to: "/admin/billing", label: "Billing", icon: "¤" },
  { to: "/admin/privacy", label: "Customer privacy", icon: "◐" },
  { to: "/admin/settings", label: "Settings", icon: "⚙" },
];

export default function AdminLayout() {
  const { businessName, appPages, sandbox } = useLoaderData<typeof loader>();
  return (
    <AreaLayout
      title={sandbox ? "Sandbox admin" : "Admin"}
      subtitle={businessName}
      badge={sandbox ? "Sandbox" : undefined}
      items={sandbox ? [...ITEMS, { to: "/portal", label: "Back to the portal", icon: "←" }] : ITEMS}
      extra={{ heading: "App pages", items: appPages }}
      notice={sandbox ? <SandboxBanner developer={sandbox.developer} /> : null}
    />
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
