import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { requireCsrf } from "~/platform/accounts/session.server";
import { readForm } from "~/platform/core/http.server";
import { MAIL_KINDS, SHOPPER_KINDS } from "~/platform/mail/kinds";
import { setShopperMail } from "~/platform/mail/settings.server";
import { previewShopperMessage } from "~/platform/mail/catalogue.server";
import { CsrfInput } from "~/components/csrf";
import { PageHeader, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "E-mails · Admin" }];

/** The messages the shop sends its shoppers (contract 16): on or off per kind, each with its preview. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "settings");
  return json({
    kinds: SHOPPER_KINDS.map((kind) => {
      const preview = previewShopperMessage(context.env, business, kind);
      return {
        kind,
        label: MAIL_KINDS[kind].label,
        on: !business.shopperMailOff.includes(kind),
        subject: preview.subject,
        text: preview.text,
      };
    }),
    // each preview's HTML part is framed from this origin (its own answer, sandboxed)
    cspFrameOrigins: [context.env.publicUrl],
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "settings");
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  for (const kind of SHOPPER_KINDS) await setShopperMail(context.db, business.id, kind, form.get(kind) === "on");
  return redirect("/admin/emails?saved=1");
}

export default function AdminEmails() {
  const { kinds } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <>
      <PageHeader title="E-mails to shoppers" />
      <SuccessNotice show={params.get("saved")}>Saved.</SuccessNotice>
      <p className="muted">
        Sent from your shop&apos;s name to the e-mail address a shopper gives at checkout. Your own notifications are in{" "}
        <a href="/account/emails">your e-mail settings</a>.
      </p>
      <Form method="post" className="stack">
        <CsrfInput />
        {kinds.map((k) => (
          <section key={k.kind} className="card stack">
            <label className="checkbox">
              <input type="checkbox" name={k.kind} defaultChecked={k.on} /> <strong>{k.label}</strong>
            </label>
            <details>
              <summary>Preview: {k.subject}</summary>
              <iframe
                title={`Preview of ${k.label}`}
                sandbox=""
                src={`/admin/emails/preview/${k.kind}`}
                style={{ width: "100%", height: "420px", border: "1px solid #d0d7de", background: "#fff" }}
              />
              <pre tabIndex={0} style={{ whiteSpace: "pre-wrap" }}>
                {k.text}
              </pre>
            </details>
          </section>
        ))}
        <button type="submit" className="button primary">
          Save
        </button>
      </Form>
    </>
  );
}
