import type { Env } from "../core/env.server";
import { getSession, sessionStorage } from "../accounts/session.server";

/**
 * A new client secret travels to the one page that shows it as a flash value of the (signed,
 * httpOnly) session cookie: read once, then gone. It is never stored in plain text.
 */
export async function flashSecret(request: Request, env: Env, appId: string, secret: string): Promise<string> {
  const session = await getSession(request, env);
  session.flash("newClientSecret", { appId, secret });
  return sessionStorage(env).commitSession(session);
}

export async function takeFlashedSecret(request: Request, env: Env, appId: string) {
  const session = await getSession(request, env);
  const value = session.get("newClientSecret") as { appId: string; secret: string } | undefined;
  return {
    secret: value?.appId === appId ? value.secret : null,
    cookie: await sessionStorage(env).commitSession(session),
  };
}

/** The token and webhook secret of a new test install, shown once on the app page. */
export async function flashTestInstall(
  request: Request,
  env: Env,
  value: { appId: string; accessToken: string; webhookSecret: string },
) {
  const session = await getSession(request, env);
  session.flash("testInstall", value);
  return sessionStorage(env).commitSession(session);
}

export async function takeFlashedTestInstall(request: Request, env: Env, appId: string) {
  const session = await getSession(request, env);
  const value = session.get("testInstall") as { appId: string; accessToken: string; webhookSecret: string } | undefined;
  return { value: value?.appId === appId ? value : null, cookie: await sessionStorage(env).commitSession(session) };
}
