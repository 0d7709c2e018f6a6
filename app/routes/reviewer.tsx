import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireReviewer } from "~/platform/accounts/guards.server";
import { PersonalAreaLayout } from "~/components/area-layout";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account } = await requireReviewer(request, context);
  return json({ name: account.name });
}

export default function ReviewerLayout() {
  return (
    <PersonalAreaLayout
      title="Review console"
      items={[
        { to: "/reviewer", label: "Review queue", end: true, icon: "☑" },
        { to: "/reviewer/marketplace", label: "Marketplace", icon: "★" },
        { to: "/account/security", label: "Security", icon: "◎" },
      ]}
    />
  );
}
