import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { AreaLayout } from "~/components/area-layout";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  return json({ businessName: business?.name ?? "" });
}

export default function AdminLayout() {
  const { businessName } = useLoaderData<typeof loader>();
  return (
    <AreaLayout
      title="Admin"
      subtitle={businessName}
      items={[
        { to: "/admin", label: "Dashboard", end: true, icon: "▦" },
        { to: "/admin/orders", label: "Orders", icon: "☰" },
        { to: "/admin/products", label: "Products", icon: "◈" },
        { to: "/admin/reviews", label: "Reviews", icon: "★" },
        { to: "/admin/apps", label: "Apps", icon: "▣" },
        { to: "/admin/settings", label: "Settings", icon: "⚙" },
      ]}
    />
  );
}
