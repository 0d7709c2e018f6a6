import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { PersonalAreaLayout } from "~/components/area-layout";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account } = await requireDeveloper(request, context);
  return json({ name: account.name });
}

export default function PortalLayout() {
  return (
    <PersonalAreaLayout
      title="Developer portal"
      items={[
        { to: "/portal", label: "Overview", end: true, icon: "▦" },
        { to: "/portal/apps", label: "My apps", icon: "▣" },
        { to: "/portal/docs", label: "Docs", icon: "☰" },
        // the sandbox business's merchant admin (decision 036)
        { to: "/admin", label: "Open sandbox admin", icon: "↗" },
      ]}
    />
  );
}
