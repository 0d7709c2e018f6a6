import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { AreaLayout } from "~/components/area-layout";
import { businessAdminPages } from "~/platform/extensions/merchant.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  const appPages = business ? await businessAdminPages(context.db, business.id) : [];
  return json({
    businessName: business?.name ?? "",
    appPages: appPages.map((p) => ({
      to: `/admin/ext/${p.installationId}/${p.pageId}`,
      label: p.title,
      // the page's icon name, else the app's icon
      icon: p.iconName ? p.iconName.slice(0, 1).toUpperCase() : undefined,
      iconUrl: !p.iconName && p.appIconUrl && /^https?:\/\//.test(p.appIconUrl) ? p.appIconUrl : null,
    })),
  });
}

export default function AdminLayout() {
  const { businessName, appPages } = useLoaderData<typeof loader>();
  return (
    <AreaLayout
      title="Admin"
      subtitle={businessName}
      items={[
        { to: "/admin", label: "Dashboard", end: true, icon: "▦" },
        { to: "/admin/orders", label: "Orders", icon: "☰" },
        { to: "/admin/products", label: "Products", icon: "◈" },
        { to: "/admin/reviews", label: "Reviews", icon: "★" },
        { to: "/admin/pages", label: "Site pages", icon: "❏" },
        { to: "/admin/apps", label: "Apps", icon: "▣" },
        { to: "/admin/billing", label: "Billing", icon: "¤" },
        { to: "/admin/settings", label: "Settings", icon: "⚙" },
      ]}
      extra={{ heading: "App pages", items: appPages }}
    />
  );
}
