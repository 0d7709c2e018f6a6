import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { eq } from "drizzle-orm";
import { accounts } from "../../db/schema";
import { getSignedInAccount } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { PlatformContext } from "~/platform/core/context";
import { getBusiness } from "~/platform/accounts/accounts.server";
import {
  approveAuthorization,
  denyAuthorization,
  installTarget,
  OAuthPageError,
  OAuthRedirectError,
  parseAuthorizeRequest,
  type AuthorizeRequest,
} from "~/platform/installs/oauth.server";
import { getActiveInstallation } from "~/platform/installs/installs.server";
import { SCOPES, type Scope } from "~/platform/shapes/app-catalog";
import { planRow, type PlanRow } from "~/platform/shapes/pricing";
import { PricingTable } from "~/components/pricing-table";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";

export const meta: MetaFunction = () => [{ title: "Install app · Storefront Apps" }];

/** The consent screen may never be framed (X-Frame-Options: DENY is set for every page by the server). */
export const headers: HeadersFunction = () => ({
  "Content-Security-Policy": "frame-ancestors 'none'",
  "Cache-Control": "no-store",
});

const PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
];

/** A refusal the app must hear goes back to its redirect_uri; one it must not (a bad link) is a page error. */
async function authorizeRequest(db: PlatformContext["db"], params: URLSearchParams): Promise<AuthorizeRequest> {
  try {
    return await parseAuthorizeRequest(db, params);
  } catch (e) {
    if (e instanceof OAuthRedirectError) throw redirect(e.location);
    throw e;
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  try {
    return await consent(request, context);
  } catch (e) {
    if (e instanceof OAuthPageError) return json({ error: e.message } as const, { status: e.status });
    throw e;
  }
}

async function consent(request: Request, context: PlatformContext) {
  const url = new URL(request.url);
  const req = await authorizeRequest(context.db, url.searchParams);
  const account = await getSignedInAccount(request, context);
  if (!account) return redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  const target = installTarget(account, req.app);
  const [developer] = await context.db
    .select({ name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, req.app.developerId));
  const business = await getBusiness(context.db, target.businessId);
  const existing = await getActiveInstallation(context.db, req.app.id, target.businessId);
  return json({
    error: null,
    app: {
      name: req.app.name,
      iconUrl: req.app.iconUrl,
      description: req.app.description,
      redirectHost: new URL(req.redirectUri).host,
    },
    developerName: developer?.name ?? "",
    // "Install" and "Cancel" answer with a redirect to the app: the policy's form-action must allow it
    cspFormActionOrigins: [req.redirectUri],
    scopes: req.scopes.map((s) => ({ name: s, label: SCOPES[s as Scope] ?? s })),
    businessName: business?.name ?? "",
    plans: (target.isTestInstall ? req.app.pricing : req.app.approvedPricing).map((plan) => planRow(plan)),
    isTestInstall: target.isTestInstall,
    sandbox: target.sandbox,
    alreadyInstalled: !!existing,
    params: PARAMS.map((name) => [name, url.searchParams.get(name)] as const).filter(([, v]) => v !== null) as [
      string,
      string,
    ][],
  });
}

/** Install or Cancel: the same checks as the page (the link, the account), then the redirect back to the app. */
export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, context, async (form) => {
    const params = new URLSearchParams();
    for (const name of PARAMS) {
      const v = form.get(name);
      if (typeof v === "string") params.set(name, v);
    }
    const req = await authorizeRequest(context.db, params);
    const account = await getSignedInAccount(request, context);
    if (!account) return redirect(`/login?redirectTo=${encodeURIComponent(`/oauth/authorize?${params}`)}`);
    if (form.get("decision") !== "approve") return redirect(denyAuthorization(req));
    return redirect(await approveAuthorization(context.db, context.env, account, req, clientAddress(request)));
  });
}

type ConsentData = {
  app: { name: string; iconUrl: string | null; description: string; redirectHost: string };
  developerName: string;
  scopes: { name: string; label: string }[];
  businessName: string;
  plans: PlanRow[];
  isTestInstall: boolean;
  sandbox: boolean;
  alreadyInstalled: boolean;
  params: [string, string][];
};

export default function Authorize() {
  const loaded = useLoaderData() as ConsentData | { error: string };
  // a refusal on "Install" (the account or the app changed since the page was shown) replaces the form
  const refused = useActionData<typeof action>();
  if (!("app" in loaded) || (refused && "error" in refused)) {
    const data = refused && "error" in refused ? refused : (loaded as { error: string });
    return (
      <main id="main" tabIndex={-1} className="page narrow">
        <div className="card stack">
          <h1>This install link does not work</h1>
          <p className="alert error" role="alert">
            {data.error}
          </p>
          <p className="muted">
            Nothing was installed. Go back to the app, or find it in the <Link to="/marketplace">marketplace</Link>.
          </p>
        </div>
      </main>
    );
  }
  const data = loaded;
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card stack consent">
        <div className="consent-head">
          {data.app.iconUrl && /^https?:/.test(data.app.iconUrl) ? (
            <img src={data.app.iconUrl} alt="" width={56} height={56} className="app-icon" />
          ) : (
            <span className="app-icon placeholder" aria-hidden>
              {data.app.name.slice(0, 1)}
            </span>
          )}
          <div>
            <h1>{`Install ${data.app.name}`}</h1>
            <p className="muted">{`by ${data.developerName}`}</p>
          </div>
        </div>
        <p>
          on <strong>{data.businessName}</strong>
          {data.isTestInstall ? <span className="badge info"> test install</span> : null}
        </p>
        {data.sandbox ? (
          <p className="muted small">
            Your sandbox: an installation for trying the app out. It counts as no install in the marketplace or the
            app&apos;s analytics, the sandbox cannot review the app, and any charge is a test charge.
          </p>
        ) : null}
        {data.alreadyInstalled ? (
          <p className="alert info">
            This app is already installed. Continuing gives it a new access token with the permissions below.
          </p>
        ) : null}
        <section>
          <h2>{`${data.app.name} will be able to:`}</h2>
          <ul className="perm-list">
            {data.scopes.map((s) => (
              <li key={s.name}>
                <span aria-hidden>✓</span> {s.label} <code className="muted small">{s.name}</code>
              </li>
            ))}
          </ul>
        </section>
        {data.plans.length > 0 ? (
          <section>
            <h2>Pricing</h2>
            <PricingTable plans={data.plans} caption={`Plans of ${data.app.name}`} />
            <p className="muted small">
              Installing charges nothing: the app asks you to approve a plan, and you see the price again then.
            </p>
          </section>
        ) : null}
        <p className="muted small">
          You will be sent back to {data.app.redirectHost}. You can uninstall the app at any time in Admin → Apps; it
          must then delete your data.
        </p>
        <Form method="post" className="row">
          <CsrfInput />
          {data.params.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <SubmitButton name="decision" value="approve" className="button primary" busyLabel="Installing…">
            Install
          </SubmitButton>
          <SubmitButton name="decision" value="deny" className="button" busyLabel="Cancelling…">
            Cancel
          </SubmitButton>
        </Form>
      </div>
    </main>
  );
}
