import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireReviewer } from "~/platform/accounts/guards.server";
import { AreaLayout } from "~/components/area-layout";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account } = await requireReviewer(request, context);
  return json({ name: account.name });
}

export default function ReviewerLayout() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <AreaLayout
      title="Review console"
      subtitle={name}
      items={[
        { to: "/reviewer", label: "Review queue", end: true, icon: "☑" },
        { to: "/reviewer/marketplace", label: "Marketplace", icon: "★" },
      ]}
    />
  );
}
