import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { PersonalAreaLayout } from "~/components/area-layout";
import { VerifyEmailBanner } from "~/components/verify-banner";
import { useLoaderData } from "@remix-run/react";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account } = await requireDeveloper(request, context);
  return json({ name: account.name, unverifiedEmail: account.emailVerifiedAt ? null : account.email });
}

export default function PortalLayout() {
  const { unverifiedEmail } = useLoaderData<typeof loader>();
  return (
    <PersonalAreaLayout
      title="Developer portal"
      items={[
        { to: "/portal", label: "Overview", end: true, icon: "▦" },
        { to: "/portal/apps", label: "My apps", icon: "▣" },
        { to: "/portal/docs", label: "Docs", icon: "☰" },
        // the sandbox business's merchant admin (decision 036)
        { to: "/admin", label: "Open sandbox admin", icon: "↗" },
        { to: "/account/emails", label: "E-mail settings", icon: "✉" },
        { to: "/account/security", label: "Security", icon: "◎" },
      ]}
      notice={unverifiedEmail ? <VerifyEmailBanner email={unverifiedEmail} /> : null}
    />
  );
}
