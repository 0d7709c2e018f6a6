import { z } from "zod";
import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { embedUpdateSchema, setEmbed } from "~/platform/extensions/merchant.server";
import { EmbedState } from "~/platform/platform-api/schemas";

const EmbedUpdate = embedUpdateSchema.meta({ id: "EmbedUpdate" });

export const { loader, action, declared } = platformRoute(
  "/merchant/installations/{installationId}/embeds/{embedType}",
  merchant("apps"),
  {
    PUT: operation({
      summary:
        "Switch an app's storefront embed on or off, with its settings (validated against the embed's settingsSchema)",
      params: z.object({
        installationId: z.string().describe("Installation id"),
        embedType: z.string().describe("The embed's type in the app's manifest"),
      }),
      body: EmbedUpdate,
      answer: { status: 200, schema: EmbedState },
      errors: [400, 404],
      handler: async ({ context, user, params, body }) =>
        setEmbed(context.db, requireBusiness(user).id, params.installationId, params.embedType, body),
    }),
  },
);
