/**
 * An app created by a developer, approved by a reviewer and installed on a signed-in merchant's
 * business as a merchant and the app's server do it: the consent screen's form, then the code
 * exchange with the client's credentials. Answers the app and its installation's access token.
 */
import type { TestPlatform } from "./platform";
import { BrowserSession, hiddenFields } from "./browser";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

type Account = { token: string };

export async function installThroughOAuth(
  p: TestPlatform,
  people: { developer: Account; reviewer: Account; merchant: BrowserSession },
  body: Record<string, unknown>,
) {
  const created = await p.request("POST", "/developer/apps", { token: people.developer.token, body });
  if (created.status !== 201) throw new Error(`app not created: ${created.status} ${created.text}`);
  await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: people.developer.token });
  await p.request("POST", `/review/apps/${created.json.id}/approve`, {
    token: people.reviewer.token,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });
  const consent = await people.merchant.get(
    `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: created.json.clientId, redirect_uri: created.json.redirectUrl, state: "s" })}`,
  );
  const approved = await people.merchant.post("/oauth/authorize", {
    ...hiddenFields(consent.html),
    decision: "approve",
  });
  const exchanged = await fetch(`${p.url}/oauth/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${created.json.clientId}:${created.json.clientSecret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: new URL(approved.location!).searchParams.get("code")!,
      redirect_uri: created.json.redirectUrl,
    }),
  }).then((r) => r.json());
  return { app: created.json, token: exchanged.access_token as string };
}

/**
 * Who an installation test needs: a reviewer, a developer, a merchant signed in in a browser (to
 * approve the consent screen), and a second merchant (another business, for isolation checks).
 */
export async function installCast(p: TestPlatform) {
  const reviewer = await p.createUser("REVIEWER");
  const dev = await p.register("DEVELOPER");
  const merchant = await p.register("MERCHANT");
  const other = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
  return { reviewer, dev, merchant, other, browser };
}
