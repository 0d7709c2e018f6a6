/** The portal's guard of an app's pages: the developer, the app, and their role on it (contract 17). */
import type { App } from "../../../db/schema";
import type { PlatformContext } from "../core/context";
import { orNotFound, requireDeveloper, type DeveloperContext } from "../accounts/guards.server";
import { appRoleAtLeast, missingAppRoleMessage, type AppRole } from "../accounts/permissions";
import { appRoleOf } from "../teams/app-members.server";
import { getDeveloperApp } from "./apps.server";

export type DeveloperAppContext = DeveloperContext & { app: App; role: AppRole };

/**
 * A signed-in developer and an app they are a member of, with their role on it (contract 17): no
 * app of that id, or one they are not a member of, is the 404 page (the same answer, so an id says
 * nothing about other developers' apps); a member whose role is below `needed` gets the 403 page
 * naming the role. Every portal page of an app declares the least role it needs beside this call.
 */
export async function requireDeveloperApp(
  request: Request,
  context: PlatformContext,
  appId: string | undefined,
  needed: AppRole,
): Promise<DeveloperAppContext> {
  const { account, business } = await requireDeveloper(request, context);
  const role = await appRoleOf(context.db, account.id, appId ?? "");
  if (!role) throw new Response("App not found", { status: 404 });
  if (!appRoleAtLeast(role, needed)) throw new Response(missingAppRoleMessage(needed), { status: 403 });
  const app = await getDeveloperApp(context.db, account.id, appId ?? "").catch(orNotFound("App not found"));
  return { account, business, app, role };
}
