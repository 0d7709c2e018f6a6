import { clientAddress } from "~/platform/core/client-address.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireAppRoleFor } from "~/platform/accounts/guards.server";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { parseWith } from "~/platform/core/http.server";
import {
  inviteAppMember,
  inviteAppMemberSchema,
  listAppMembers,
  removeAppMember,
  serializeAppMember,
  updateAppMember,
  updateAppMemberSchema,
} from "~/platform/teams/app-members.server";
import { APP_ROLE_LABELS, appRoleAtLeast, type AppRole } from "~/platform/accounts/permissions";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { AppPageHeader, ErrorAlert, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Members · ${data?.app.name ?? "App"}` }];

const ROLES = ["ADMIN", "DEVELOPER", "VIEWER"] as const;

/** Every member sees who works on the app; an OWNER or ADMIN invites, changes roles and removes (contract 17). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { account, app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const { rows } = await listAppMembers(context.db, app.id, { limit: 1000, offset: 0 });
  return json({
    app: { id: app.id, name: app.name },
    role,
    you: account.id,
    members: rows.map(serializeAppMember),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { account, app, role } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  return formAction(request, context, async (form) => {
    requireAppRoleFor(role, "ADMIN");
    const id = String(form.get("id") ?? "");
    switch (form.get("intent")) {
      case "invite":
        await inviteAppMember(
          context.db,
          context.env,
          account,
          app.id,
          parseWith(inviteAppMemberSchema, { email: form.get("email"), role: form.get("role") }),
          clientAddress(request),
        );
        return redirect(`/portal/apps/${app.id}/members?saved=invited`);
      case "role":
        await updateAppMember(
          context.db,
          app.id,
          id,
          parseWith(updateAppMemberSchema, { role: form.get("role") }).role,
          { account, ip: clientAddress(request) },
        );
        return redirect(`/portal/apps/${app.id}/members?saved=role`);
      case "remove":
        await removeAppMember(context.db, app.id, id, { account, ip: clientAddress(request) });
        return redirect(`/portal/apps/${app.id}/members?saved=removed`);
      default:
        return json({ error: "Unknown action" }, 400);
    }
  });
}

const SAVED: Record<string, string> = {
  invited: "Invitation sent. It works once, for 7 days.",
  role: "Role saved; it applies at once.",
  removed: "Removed from the app.",
};

export default function AppMembers() {
  const { app, role, members } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const saved = useSearchParams()[0].get("saved");
  const manages = appRoleAtLeast(role as AppRole, "ADMIN");
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Members">
        The developers who work on this app and their roles. Your role: {APP_ROLE_LABELS[role as AppRole].label}.
      </AppPageHeader>
      <ErrorAlert error={data && "error" in data ? (data.error as string) : null} />
      <SuccessNotice show={!!saved && saved in SAVED}>{saved ? SAVED[saved] : ""}</SuccessNotice>
      {manages ? (
        <section className="card stack" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite a developer</h2>
          <Form method="post" className="row">
            <CsrfInput />
            <input type="hidden" name="intent" value="invite" />
            <label className="field">
              <span>E-mail address</span>
              <input type="email" name="email" required />
            </label>
            <label className="field">
              <span>Role</span>
              <select name="role" defaultValue="DEVELOPER">
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {APP_ROLE_LABELS[r].label}: {APP_ROLE_LABELS[r].description}
                  </option>
                ))}
              </select>
            </label>
            <SubmitButton className="button primary" busyLabel="Inviting…">
              Send invitation
            </SubmitButton>
          </Form>
        </section>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>Person</th>
            <th>Role</th>
            <th>Status</th>
            {manages ? <th>Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                <strong>{m.name ?? m.email}</strong>
                {m.name ? <div className="small muted">{m.email}</div> : null}
              </td>
              <td data-label="Role">{APP_ROLE_LABELS[m.role].label}</td>
              <td data-label="Status">{m.status === "INVITED" ? "Invited" : "Active"}</td>
              {manages ? (
                <td data-label="Change">
                  {m.role === "OWNER" ? (
                    <span className="muted">The owner cannot be changed</span>
                  ) : (
                    <div className="row">
                      <Form method="post" className="row">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="role" />
                        <input type="hidden" name="id" value={m.id} />
                        <select name="role" defaultValue={m.role} aria-label={`Role of ${m.email}`}>
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {APP_ROLE_LABELS[r].label}
                            </option>
                          ))}
                        </select>
                        <SubmitButton className="button small" busyLabel="Saving…">
                          Save
                        </SubmitButton>
                      </Form>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="id" value={m.id} />
                        <SubmitButton className="button small danger" busyLabel="Removing…">
                          {m.status === "INVITED" ? "Withdraw" : "Remove"}
                        </SubmitButton>
                      </Form>
                    </div>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
