/** `storefront-apps test-install`: installs the current app on the developer's sandbox. */
import { api, appIdOf, out, readConfig, type Flags } from "../shared.ts";

export async function testInstall(flags: Flags) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/test-install`);
  out(`Installed on your sandbox business ${r.businessId} (test installation ${r.installationId}).`);
  out(`  access token:   ${r.accessToken}`);
  out(`  webhook secret: ${r.webhookSecret}`);
}
