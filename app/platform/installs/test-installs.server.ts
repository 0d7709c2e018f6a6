/**
 * Sandbox test installs (spec "Developer endpoints"; contract section 4): a developer installs
 * their own app, in any state, on their sandbox business without OAuth.
 */
import type { Database, Db } from "../../../db/client";
import type { Account } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { getDeveloperApp } from "../apps/app-lookups.server";
import { createInstallation, getActiveInstallation, issueAccessToken, uninstall } from "./installs.server";

function sandboxOf(account: Account): string {
  if (!account.businessId) throw new ApiError(409, "This developer account has no sandbox business");
  return account.businessId;
}

export async function testInstall(db: Database, env: Env, account: Account, appId: string) {
  const app = await getDeveloperApp(db, account.id, appId);
  const businessId = sandboxOf(account);
  return db.transaction(async (tx) => {
    const alreadyInstalled = "The app is already installed on your sandbox; test-uninstall it first";
    if (await getActiveInstallation(tx, app.id, businessId)) throw new ApiError(409, alreadyInstalled);
    // two test installs at once: one wins the unique index, the other gets the same 409
    const { installation, webhookSecret } = await createInstallation(
      tx,
      env,
      { app, businessId, scopes: app.scopes, isTestInstall: true, installedBy: account.id },
      { alreadyInstalled, by: { account, ip: null } },
    );
    const accessToken = await issueAccessToken(tx, installation);
    return { installationId: installation.id, accessToken, webhookSecret, businessId, isTestInstall: true };
  });
}

export async function testStatus(db: Db, account: Account, appId: string) {
  const app = await getDeveloperApp(db, account.id, appId);
  const installation = account.businessId ? await getActiveInstallation(db, app.id, account.businessId) : undefined;
  return {
    installed: !!installation,
    installation: installation
      ? {
          installationId: installation.id,
          businessId: installation.businessId,
          isTestInstall: installation.isTestInstall,
          needsReConsent: installation.needsReConsent,
          scopes: installation.scopes,
          installedAt: installation.installedAt.toISOString(),
        }
      : null,
  };
}

export async function testUninstall(db: Database, account: Account, appId: string) {
  const app = await getDeveloperApp(db, account.id, appId);
  const businessId = sandboxOf(account);
  await db.transaction(async (tx) => {
    const installation = await getActiveInstallation(tx, app.id, businessId);
    if (!installation) throw new ApiError(404, "The app is not installed on your sandbox");
    await uninstall(tx, installation, { account, ip: null });
  });
  return { uninstalled: true };
}
