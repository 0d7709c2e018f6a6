import { clientAddress } from "~/platform/core/client-address.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { parseWith } from "~/platform/core/http.server";
import {
  inviteStaff,
  inviteStaffSchema,
  listStaff,
  removeStaff,
  serializeStaff,
  transferOwnership,
  updateStaff,
  updateStaffSchema,
} from "~/platform/teams/staff.server";
import { PERMISSIONS, PERMISSION_LABELS, type Permission } from "~/platform/accounts/permissions";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { ErrorAlert, PageHeader, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Staff · Admin" }];

const checked = (form: FormData) => form.getAll("permissions").map(String);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business, member } = await requireMerchant(request, context, "staff");
  const { rows } = await listStaff(context.db, business.id, { limit: 1000, offset: 0 });
  return json(
    { staff: rows.map(serializeStaff), you: { id: account.id, owner: member.owner } },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { account, business, member } = await requireMerchant(request, context, "staff");
  const by = { account, ip: clientAddress(request) };
  return formAction(request, context, async (form) => {
    const id = String(form.get("id") ?? "");
    switch (form.get("intent")) {
      case "invite": {
        const input = parseWith(inviteStaffSchema, { email: form.get("email"), permissions: checked(form) });
        await inviteStaff(context.db, context.env, { ...member, name: account.name }, input, by);
        return redirect(`/admin/staff?saved=invited`);
      }
      case "permissions":
        await updateStaff(
          context.db,
          business.id,
          id,
          parseWith(updateStaffSchema, { permissions: checked(form) }).permissions,
          by,
        );
        return redirect(`/admin/staff?saved=permissions`);
      case "remove":
        await removeStaff(context.db, business.id, id, by);
        return redirect(`/admin/staff?saved=removed`);
      case "ownership":
        await transferOwnership(context.db, member, id);
        return redirect(`/admin/staff?saved=ownership`);
      default:
        return json({ error: "Unknown action" }, 400);
    }
  });
}

const SAVED: Record<string, string> = {
  invited: "Invitation sent. It works once, for 7 days.",
  permissions: "Permissions saved; they apply at once.",
  removed: "Removed. Their sessions ended at once.",
  ownership: "Ownership handed over. You keep every permission as a member.",
};

function PermissionBoxes({ prefix, selected }: { prefix: string; selected: readonly string[] }) {
  return (
    <fieldset className="permission-boxes">
      <legend className="small">Permissions</legend>
      {PERMISSIONS.map((p) => (
        <label key={p} className="check" title={PERMISSION_LABELS[p].description}>
          <input
            type="checkbox"
            name="permissions"
            value={p}
            defaultChecked={selected.includes(p)}
            data-testid={`${prefix}-${p}`}
          />{" "}
          {PERMISSION_LABELS[p].label}
        </label>
      ))}
    </fieldset>
  );
}

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC"
    : "—";

export default function AdminStaff() {
  const { staff, you } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const saved = params.get("saved");
  return (
    <div className="stack-lg">
      <PageHeader title="Staff" className="page-head">
        The people who work in this admin. Each member sees and does only what their permissions allow; the owner has
        every permission.
      </PageHeader>
      <ErrorAlert error={data && "error" in data ? (data.error as string) : null} />
      <SuccessNotice show={!!saved && saved in SAVED}>{saved ? SAVED[saved] : ""}</SuccessNotice>

      <section className="card stack" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite a member</h2>
        <Form method="post" className="stack">
          <CsrfInput />
          <input type="hidden" name="intent" value="invite" />
          <label className="field">
            <span>E-mail address</span>
            <input type="email" name="email" required autoComplete="off" data-testid="invite-email" />
          </label>
          <PermissionBoxes prefix="invite" selected={[]} />
          <div>
            <SubmitButton className="button primary" busyLabel="Inviting…">
              Send invitation
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section className="card stack" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <table className="table" data-testid="staff-table">
          <thead>
            <tr>
              <th>Person</th>
              <th>Status</th>
              <th>Permissions</th>
              <th>Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {staff.map((s) => (
              <tr key={s.id} data-testid={`staff-${s.email}`}>
                <td>
                  <strong>{s.name ?? s.email}</strong>
                  {s.name ? <div className="small muted">{s.email}</div> : null}
                  {s.owner ? <span className="badge ok">Owner</span> : null}
                </td>
                <td data-label="Status">
                  {s.status === "INVITED" ? (
                    <span className="badge warn">Invited · until {when(s.expiresAt)}</span>
                  ) : (
                    <span className="badge ok">Active</span>
                  )}
                </td>
                <td data-label="Permissions">
                  {s.owner ? (
                    <span className="muted">Every permission</span>
                  ) : (
                    <details>
                      <summary>
                        {s.permissions.length
                          ? s.permissions.map((p) => PERMISSION_LABELS[p as Permission].label).join(", ")
                          : "None"}
                      </summary>
                      <Form method="post" className="stack">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="permissions" />
                        <input type="hidden" name="id" value={s.id} />
                        <PermissionBoxes prefix={`edit-${s.email}`} selected={s.permissions} />
                        <SubmitButton className="button small" busyLabel="Saving…">
                          Save permissions
                        </SubmitButton>
                      </Form>
                      <Form method="post">
                        <CsrfInput />
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="id" value={s.id} />
                        <SubmitButton className="button small danger" busyLabel="Removing…">
                          {s.status === "INVITED" ? "Withdraw invitation" : "Remove from staff"}
                        </SubmitButton>
                      </Form>
                      {you.owner && s.status === "ACTIVE" ? (
                        <Form method="post">
                          <CsrfInput />
                          <input type="hidden" name="intent" value="ownership" />
                          <input type="hidden" name="id" value={s.id} />
                          <SubmitButton className="button small" busyLabel="Handing over…">
                            Make owner
                          </SubmitButton>
                        </Form>
                      ) : null}
                    </details>
                  )}
                </td>
                <td data-label="Last sign-in">{when(s.lastSignInAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
