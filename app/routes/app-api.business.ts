import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { serializeBusiness } from "~/platform/catalog/serialize.server";
import { Business } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/business", {
  GET: operation({
    summary: "The business of the token",
    scope: "read_business",
    answer: { status: 200, schema: Business },
    errors: [],
    handler: async ({ caller }) => serializeBusiness(caller.business),
  }),
});
