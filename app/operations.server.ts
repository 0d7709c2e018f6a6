/**
 * The registry of declared JSON operations (decision 025): every route module of the App API and
 * /webhooks, and of the Platform API (/merchant, /review, /developer, /auth, /oauth/token), imported explicitly so that the document is complete however the Remix build bundles
 * them. Each module declares its own operations (`appApiRoute(path, { GET: operation({...}) })`);
 * these lists only name the modules. `app/platform/app-api/operations.test.ts` walks the route tree
 * and fails when a module under /app-api, /webhooks, /merchant, /review, /developer, /auth or /oauth/token is missing here or from
 * its document.
 */
import { now } from "~/platform/core/clock.server";
import { currentVersion } from "~/platform/versions/registry";
import type { DeclaredRoute } from "~/platform/core/operations.server";
import { openApiDocument } from "~/platform/app-api/openapi.server";
import { platformApiDocument } from "~/platform/platform-api/openapi.server";
import * as analyticsDashboard from "./routes/app-api.analytics.dashboard";
import * as business from "./routes/app-api.business";
import * as installation from "./routes/app-api.installation";
import * as orderOne from "./routes/app-api.orders.$id._index";
import * as orderPayment from "./routes/app-api.orders.$id.payment";
import * as orderStatus from "./routes/app-api.orders.$id.status";
import * as orders from "./routes/app-api.orders._index";
import * as pageOne from "./routes/app-api.pages.$slug";
import * as pages from "./routes/app-api.pages._index";
import * as productOne from "./routes/app-api.products.$id";
import * as products from "./routes/app-api.products._index";
import * as productBySlug from "./routes/app-api.products.slug.$slug";
import * as reviews from "./routes/app-api.reviews._index";
import * as reviewStats from "./routes/app-api.reviews.stats";
import * as billingSubscriptions from "./routes/app-api.billing.subscriptions._index";
import * as billingSubscription from "./routes/app-api.billing.subscriptions.$id._index";
import * as billingUsage from "./routes/app-api.billing.subscriptions.$id.usage";
import * as billingCharges from "./routes/app-api.billing.charges";
import * as merchantBillingApprove from "./routes/merchant.billing.subscriptions.$id.approve";
import * as merchantBillingDecline from "./routes/merchant.billing.subscriptions.$id.decline";
import * as merchantBillingCancel from "./routes/merchant.billing.subscriptions.$id.cancel";
import * as merchantBillingCap from "./routes/merchant.billing.subscriptions.$id.cap";
import * as merchantBillingInvoices from "./routes/merchant.billing.invoices";
import * as developerEarnings from "./routes/developer.apps.$appId.earnings";
import * as webhooks from "./routes/webhooks._index";
import * as webhookOne from "./routes/webhooks.$id._index";
import * as webhookTest from "./routes/webhooks.$id.[test]";
import * as deliveries from "./routes/webhooks.$id.deliveries._index";
import * as redeliver from "./routes/webhooks.$id.deliveries.$deliveryId.redeliver";
import * as merchantInstallations from "./routes/merchant.installations._index";
import * as merchantInstallation from "./routes/merchant.installations.$installationId";
import * as merchantConsent from "./routes/merchant.installations.$installationId.consent";
import * as merchantSettings from "./routes/merchant.installations.$installationId.settings";
import * as merchantEmbed from "./routes/merchant.installations.$installationId.embeds.$embedType";
import * as merchantReview from "./routes/merchant.installations.$installationId.review";
import * as merchantPages from "./routes/merchant.pages._index";
import * as merchantPage from "./routes/merchant.pages.$slug";
import * as merchantPrivacy from "./routes/merchant.privacy.requests";
import * as merchantFiles from "./routes/merchant.files";
import * as merchantFile from "./routes/merchant.files.$fileId";
import * as merchantReviewReply from "./routes/merchant.reviews.$reviewId.reply";
import * as reviewQueue from "./routes/review.apps._index";
import * as reviewApprove from "./routes/review.apps.$appId.approve";
import * as reviewReject from "./routes/review.apps.$appId.reject";
import * as reviewHide from "./routes/review.app-reviews.$reviewId.hide";
import * as developerApps from "./routes/developer.apps._index";
import * as developerApp from "./routes/developer.apps.$appId";
import * as developerClientSecret from "./routes/developer.apps.$appId.client-secret";
import * as developerManifest from "./routes/developer.apps.$appId.manifest";
import * as developerSubmit from "./routes/developer.apps.$appId.submit";
import * as developerTestInstall from "./routes/developer.apps.$appId.test-install";
import * as developerTestStatus from "./routes/developer.apps.$appId.test-status";
import * as developerTestUninstall from "./routes/developer.apps.$appId.test-uninstall";
import * as developerTrigger from "./routes/developer.apps.$appId.trigger";
import * as developerTriggerHook from "./routes/developer.apps.$appId.trigger-hook";
import * as developerListen from "./routes/developer.apps.$appId.listen";
import * as developerListenAnswer from "./routes/developer.apps.$appId.listen.$callId.answer";
import * as developerAnalytics from "./routes/developer.apps.$appId.analytics";
import * as developerReviews from "./routes/developer.apps.$appId.reviews";
import * as developerReviewReply from "./routes/developer.apps.$appId.reviews.$reviewId.reply";
import * as developerSandbox from "./routes/developer.sandbox";
import * as authLogin from "./routes/auth.login";
import * as authRegister from "./routes/auth.register";
import * as authInvitationAccept from "./routes/auth.invitations.accept";
import * as merchantStaff from "./routes/merchant.staff._index";
import * as merchantStaffOne from "./routes/merchant.staff.$id._index";
import * as merchantStaffOwnership from "./routes/merchant.staff.$id.ownership";
import * as developerAppMembers from "./routes/developer.apps.$appId.members._index";
import * as developerAppMember from "./routes/developer.apps.$appId.members.$memberId";
import * as authPasswordReset from "./routes/auth.password-reset._index";
import * as authPasswordResetConfirm from "./routes/auth.password-reset.confirm";
import * as authVerifyEmail from "./routes/auth.verify-email._index";
import * as authVerifyEmailResend from "./routes/auth.verify-email.resend";
import * as oauthToken from "./routes/oauth.token";
import * as authMfaTotp from "./routes/auth.mfa.totp._index";
import * as authMfaTotpConfirm from "./routes/auth.mfa.totp.confirm";
import * as authMfaRecoveryCodes from "./routes/auth.mfa.recovery-codes";
import * as authSessions from "./routes/auth.sessions._index";
import * as authSession from "./routes/auth.sessions.$sessionId";
import * as developerSandboxClock from "./routes/developer.sandbox.clock";
import * as developerSandboxClockReset from "./routes/developer.sandbox.clock.reset";
import * as developerDeliveryResend from "./routes/developer.apps.$appId.deliveries.$deliveryId.resend";
import * as developerReleases from "./routes/developer.apps.$appId.releases";
import * as developerReleaseRestore from "./routes/developer.apps.$appId.releases.$version.restore";
import * as developerLogsStream from "./routes/developer.apps.$appId.logs.stream";
import * as developerActivity from "./routes/developer.apps.$appId.activity";
import * as merchantSecurity from "./routes/merchant.security";
import * as merchantActivity from "./routes/merchant.activity";

/** The App API and /webhooks, in the document's order. */
export const APP_API_ROUTES: DeclaredRoute[] = [
  products,
  productOne,
  productBySlug,
  orders,
  orderOne,
  orderStatus,
  orderPayment,
  reviews,
  reviewStats,
  analyticsDashboard,
  installation,
  business,
  pages,
  pageOne,
  billingSubscriptions,
  billingSubscription,
  billingUsage,
  billingCharges,
  webhooks,
  webhookOne,
  deliveries,
  redeliver,
  webhookTest,
].map((m) => m.declared);

/** The App API's OpenAPI 3.1 document in one API version (the current one unless named), served at /app-api/openapi.json and shown in the portal's docs. */
export const appApiDocument = (publicUrl: string, version = currentVersion(now())) =>
  openApiDocument(APP_API_ROUTES, publicUrl, version);

/** The Platform API: /auth, /oauth/token, /developer, /merchant and /review, in the document's order. */
export const PLATFORM_API_ROUTES: DeclaredRoute[] = [
  authRegister,
  authLogin,
  authInvitationAccept,
  authPasswordReset,
  authPasswordResetConfirm,
  authVerifyEmail,
  authVerifyEmailResend,
  authMfaTotp,
  authMfaTotpConfirm,
  authMfaRecoveryCodes,
  authSessions,
  authSession,
  oauthToken,
  developerApps,
  developerApp,
  developerClientSecret,
  developerManifest,
  developerSubmit,
  developerTestInstall,
  developerTestStatus,
  developerTestUninstall,
  developerTrigger,
  developerTriggerHook,
  developerListen,
  developerListenAnswer,
  developerAnalytics,
  developerEarnings,
  developerReviews,
  developerReviewReply,
  developerSandbox,
  developerAppMembers,
  developerAppMember,
  developerSandboxClock,
  developerSandboxClockReset,
  developerDeliveryResend,
  developerReleases,
  developerReleaseRestore,
  developerLogsStream,
  developerActivity,
  merchantInstallations,
  merchantInstallation,
  merchantConsent,
  merchantSettings,
  merchantEmbed,
  merchantReview,
  merchantPages,
  merchantPage,
  merchantPrivacy,
  merchantFiles,
  merchantFile,
  merchantReviewReply,
  merchantBillingApprove,
  merchantBillingDecline,
  merchantBillingCancel,
  merchantBillingCap,
  merchantBillingInvoices,
  merchantStaff,
  merchantStaffOne,
  merchantStaffOwnership,
  merchantSecurity,
  merchantActivity,
  reviewQueue,
  reviewApprove,
  reviewReject,
  reviewHide,
].map((m) => m.declared);

/** The Platform API's OpenAPI 3.1 document, served at /developer/openapi.json. */
export const platformDocument = (publicUrl: string) => platformApiDocument(PLATFORM_API_ROUTES, publicUrl);
