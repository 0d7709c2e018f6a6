/** `storefront-apps login`: signs in as a developer and keeps the token (mode 600). */
import { CliError, configFile, out, platformUrl, prompt, readConfig, str, writeConfig, type Flags } from "../shared.ts";

export async function login(flags: Flags) {
  const config = readConfig();
  const url = platformUrl(flags, config);
  const email = str(flags.email) ?? (await prompt("Email: "));
  const password = str(flags.password) ?? process.env.STOREFRONT_APPS_PASSWORD ?? (await prompt("Password: "));
  const res = await fetch(url + "/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const json = (await res.json().catch(() => ({}))) as {
    token?: string;
    account?: { role?: string; name?: string };
    message?: string;
  };
  if (!res.ok || !json.token)
    throw new CliError(`Login failed (${res.status}): ${json.message ?? "wrong email or password"}`);
  if (json.account?.role !== "DEVELOPER") throw new CliError("This account is not a developer account");
  writeConfig({ ...config, platformUrl: url, token: json.token, email });
  out(`Logged in to ${url} as ${email}. Token saved in ${configFile()} (mode 600).`);
}
