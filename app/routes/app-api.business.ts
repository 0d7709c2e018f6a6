import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { serializeBusiness } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_business", handler: async ({ caller }) => serializeBusiness(caller.business) },
});
