import type { App, Business, Installation } from "../../../db/schema";

/** What an App API call knows about its caller (the app's big fields, like the manifest, are not read). */
export type AppCaller = {
  installation: Installation;
  app: Pick<App, "id" | "slug" | "name" | "apiVersion">;
  business: Business;
};
