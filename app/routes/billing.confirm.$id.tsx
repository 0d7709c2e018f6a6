import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { clientAddress } from "~/platform/core/client-address.server";
import { may, memberOf, missingPermissionMessage } from "~/platform/accounts/permissions";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getSignedInAccount } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { PlatformContext } from "~/platform/core/context";
import { orNotFound } from "~/platform/accounts/guards.server";
import {
  approveSubscription,
  declineSubscription,
  getForConfirmation,
  returnUrlWith,
} from "~/platform/billing/subscriptions.server";
import { planPriceText } from "~/platform/shapes/pricing";
import { formatMoney } from "~/platform/core/money";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";

export const meta: MetaFunction = () => [{ title: "Approve charge · Storefront Apps" }];

/** The confirmation page may never be framed (X-Frame-Options: DENY is set for every page by the server). */
export const headers: HeadersFunction = () => ({
  "Content-Security-Policy": "frame-ancestors 'none'",
  "Cache-Control": "no-store",
});

/** The signed-in account's business (a merchant's, or a developer's sandbox for test charges), else sign in and come back. */
async function businessOf(request: Request, context: PlatformContext) {
  const account = await getSignedInAccount(request, context);
  if (!account) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname)}`);
  }
  if (!account.businessId || account.role === "REVIEWER")
    throw new Response("Only the business's owner can approve its charges.", { status: 403 });
  // approving an app's charges is the `apps` permission of a business's member (contract 17)
  if (!may(memberOf(account), "apps")) throw new Response(missingPermissionMessage("apps"), { status: 403 });
  return { businessId: account.businessId, account };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { businessId } = await businessOf(request, context);
  const { sub, appName, iconUrl } = await getForConfirmation(context.db, businessId, params.id ?? "").catch(
    orNotFound("This charge does not exist, or it is not for your business."),
  );
  const p = sub.plan;
  return json({
    id: sub.id,
    status: sub.status,
    appName,
    iconUrl,
    kind: sub.kind,
    planName: p.name,
    price: planPriceText(p),
    trialDays: p.trialDays,
    cap: sub.usageCap !== null ? formatMoney(sub.usageCap, p.currency) : null,
    usageTerms: p.usageTerms,
    test: sub.test,
    expiresAt: sub.expiresAt.toISOString(),
    returnHost: new URL(sub.returnUrl).host,
    // Approve and Decline answer with a redirect to the app: the policy's form-action must allow it
    cspFormActionOrigins: [new URL(sub.returnUrl).origin],
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { businessId, account } = await businessOf(request, context);
  const by = { account, ip: clientAddress(request) };
  return formAction(request, context, async (form) => {
    const id = params.id ?? "";
    const sub =
      form.get("decision") === "approve"
        ? await approveSubscription(context.db, businessId, id, by)
        : await declineSubscription(context.db, businessId, id, by);
    return redirect(returnUrlWith(sub));
  });
}

export default function ConfirmCharge() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const open = data.status === "PENDING";
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <div className="card stack consent">
        <div className="consent-head">
          {data.iconUrl && /^https?:/.test(data.iconUrl) ? (
            <img src={data.iconUrl} alt="" width={56} height={56} className="app-icon" />
          ) : (
            <span className="app-icon placeholder" aria-hidden>
              {data.appName.slice(0, 1)}
            </span>
          )}
          <div>
            <h1>
              {data.kind === "ONE_TIME" ? `Approve a charge from ${data.appName}` : `Subscribe to ${data.appName}`}
            </h1>
            {data.test ? (
              <p>
                <span className="badge info">Test charge: you will not be billed</span>
              </p>
            ) : null}
          </div>
        </div>
        <dl className="facts">
          <dt>Plan</dt>
          <dd>{data.planName}</dd>
          <dt>Price</dt>
          <dd data-testid="confirm-price">{data.price}</dd>
          {data.trialDays > 0 ? (
            <>
              <dt>Trial</dt>
              <dd>{`${data.trialDays}-day free trial (less any trial days already used on this app)`}</dd>
            </>
          ) : null}
          {data.cap ? (
            <>
              <dt>Usage cap</dt>
              <dd>{`Usage charges never pass ${data.cap} per 30 days`}</dd>
            </>
          ) : null}
          {data.usageTerms ? (
            <>
              <dt>Usage terms</dt>
              <dd>{data.usageTerms}</dd>
            </>
          ) : null}
        </dl>
        {refused && "error" in refused ? (
          <p className="alert error" role="alert">
            {refused.error}
          </p>
        ) : null}
        {open ? (
          <>
            <p className="muted small">
              Charges appear on your monthly invoice in Admin → Billing, where you can cancel at any time. You will be
              sent back to {data.returnHost}.
            </p>
            <Form method="post" className="row">
              <CsrfInput />
              <SubmitButton name="decision" value="approve" className="button primary" busyLabel="Approving…">
                Approve
              </SubmitButton>
              <SubmitButton name="decision" value="decline" className="button" busyLabel="Declining…">
                Decline
              </SubmitButton>
            </Form>
          </>
        ) : (
          <p className="alert info" role="status">
            {`This request is ${data.status.toLowerCase()}.`} <Link to="/admin/billing">See Billing</Link>
          </p>
        )}
      </div>
    </main>
  );
}
