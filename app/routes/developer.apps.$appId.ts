import { appRoleAtLeast, missingAppRoleMessage } from "~/platform/accounts/permissions";
import { ApiError } from "~/platform/core/http.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import {
  AppUpdateBody,
  checkAppUrls,
  getDeveloperApp,
  listAppVersions,
  refuseImmutableFields,
  serializeApp,
  serializeVersion,
  updateApp,
} from "~/platform/apps/apps.server";
import { recordRelease } from "~/platform/apps/releases.server";
import { AppDetail, AppRecord } from "~/platform/platform-api/schemas";

const one = oneBy("appId", "App id (another developer's app is 404)", AppDetail);

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary: "One of the developer's apps, with its approved versions (the changelog)",
    ...one,
    handler: async ({ context, user, params }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      // the app record plus its approved versions (the changelog), each with its release notes
      return { ...serializeApp(app), versions: (await listAppVersions(context.db, app.id)).map(serializeVersion) };
    },
  }),
  PATCH: operation({
    appRole: "DEVELOPER",
    summary: "Change an app's fields (not slug, clientId or status)",
    description:
      "slug and clientId are immutable and status changes only through submit and review (400 with those words). In production every URL must be https. An app in review is not editable (409).",
    params: one.params,
    body: AppUpdateBody,
    bodyPrecheck: refuseImmutableFields,
    answer: { status: 200, schema: AppRecord },
    errors: [400, 403, 404, 409, 413],
    handler: async ({ context, user, appRole, params, body, request }) => {
      const before = await getDeveloperApp(context.db, user.account.id, params.appId);
      // pricing is the ADMIN's (contract 17); the rest of the record a DEVELOPER may change
      if (body.pricing !== undefined && !appRoleAtLeast(appRole!, "ADMIN"))
        throw new ApiError(403, missingAppRoleMessage("ADMIN"));
      checkAppUrls(context.env, body);
      const updated = await updateApp(context.db, user.account.id, params.appId, body, {
        account: user.account,
        ip: clientAddress(request),
      });
      // an edit of the configuration is a release too (contract 19)
      await recordRelease(context.db, updated.id, user.account.id, { source: "api", before });
      return serializeApp(updated);
    },
  }),
});
