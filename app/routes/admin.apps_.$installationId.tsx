import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { and, eq } from "drizzle-orm";
import { installations } from "../../db/schema";
import { getSignedInAccount } from "~/platform/accounts/session.server";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { getAppForReview } from "~/platform/apps/review.server";
import { businessAdminPages, businessEmbeds, setAppSettings, setEmbed } from "~/platform/extensions/merchant.server";
import type { Manifest } from "~/platform/shapes/manifest";
import { ApiError } from "~/platform/core/http.server";
import { SettingsForm } from "~/components/settings-form";
import { CsrfInput } from "~/components/csrf";
import { AppIcon } from "~/components/app-icon";
import { SubmitButton } from "~/components/submit-button";
import { deleteReview, getOwnReview, putReview, reviewRefusal } from "~/platform/apps/app-reviews.server";
import { AppReviewForm, OwnReviewStatus } from "~/components/app-review-form";
import { readReviewForm } from "~/components/app-review-form.server";
import { Card, ErrorAlert } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.app.name ?? "App"} · Apps · Admin` }];

async function load(request: Request, context: LoaderFunctionArgs["context"], installationId: string) {
  const { business } = await requireMerchant(request, context, "apps");
  const [installation] = await context.db
    .select()
    .from(installations)
    .where(
      and(
        eq(installations.id, installationId),
        eq(installations.businessId, business.id),
        eq(installations.status, "ACTIVE"),
      ),
    );
  if (!installation) throw new Response("App not found", { status: 404 });
  const app = await getAppForReview(context.db, installation.appId);
  return { business, installation, app };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  // an app sends whoever installed it here after the OAuth exchange; a developer who installed an
  // approved app on their sandbox has no admin, and finds the sandbox in the portal
  if (
    new URL(request.url).searchParams.has("installed") &&
    (await getSignedInAccount(request, context))?.role === "DEVELOPER"
  )
    throw redirect("/portal");
  const { business, installation, app } = await load(request, context, params.installationId!);
  const manifest = (app.manifest as Manifest | null) ?? {};
  const embeds = (await businessEmbeds(context.db, business.id)).filter((e) => e.installationId === installation.id);
  const adminPages = (await businessAdminPages(context.db, business.id)).filter(
    (p) => p.installationId === installation.id,
  );
  const [review, reviewBlocked] = await Promise.all([
    getOwnReview(context.db, business.id, app.id),
    reviewRefusal(context.db, business.id, app.id),
  ]);
  return json({
    review,
    reviewBlocked,
    appSlug: app.status === "APPROVED" ? app.slug : null,
    installationId: installation.id,
    app: { name: app.name, description: app.description, iconUrl: app.iconUrl },
    installedAt: installation.installedAt.toISOString(),
    isTestInstall: installation.isTestInstall,
    settingsSchema: manifest.settingsSchema ?? null,
    settings: installation.settings,
    embeds: embeds.map((e) => ({
      embedType: e.embedType,
      name: e.name,
      description: e.description ?? "",
      kind: e.kind,
      position: e.position,
      enabled: e.enabled,
      settings: e.settings,
      settingsSchema: e.settingsSchema ?? null,
      placement: e.placement,
    })),
    adminPages: adminPages.map((p) => ({ pageId: p.pageId, title: p.title })),
    cspEval: true, // JSON-Schema settings forms (page-csp.server.ts)
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business, installation, app } = await load(request, context, params.installationId!);
  return formAction(request, context, async (form) => {
    const parseJson = (name: string) => {
      try {
        return JSON.parse(String(form.get(name) ?? "{}"));
      } catch {
        throw new ApiError(400, "The settings could not be read");
      }
    };
    if (form.get("intent") === "settings") {
      await setAppSettings(
        context.db,
        business.id,
        installation.id,
        parseJson("settings"),
        (app.manifest as Manifest | null) ?? null,
      );
      return redirect(`?saved=settings`);
    }
    if (form.get("intent") === "review") {
      const review = readReviewForm(form);
      if (!review.ok) return json({ error: review.error }, 400);
      await putReview(context.db, business.id, installation.id, review.input);
      return redirect(`?saved=review#review`);
    }
    if (form.get("intent") === "delete-review") {
      await deleteReview(context.db, business.id, installation.id);
      return redirect(`?saved=review-deleted#review`);
    }
    if (form.get("intent") === "embed") {
      const embedType = String(form.get("embedType") ?? "");
      const body: Record<string, unknown> = { enabled: form.get("enabled") === "true" };
      if (form.has("settings")) body.settings = parseJson("settings");
      if (form.has("corner")) {
        const offset = String(form.get("offset") ?? "").trim();
        if (offset !== "" && !/^\d+$/.test(offset))
          return json({ error: "Offset must be a whole number of pixels, 0 to 400." }, 400);
        body.placement = {
          corner: String(form.get("corner")),
          offset: offset === "" ? 0 : Number(offset),
          showOnPhones: form.get("showOnPhones") === "on",
        };
      }
      await setEmbed(context.db, business.id, installation.id, embedType, body);
      const what = form.has("corner") ? "placement" : form.has("settings") ? "settings" : body.enabled ? "on" : "off";
      return redirect(`?${new URLSearchParams({ saved: "embed", embed: embedType, what })}`);
    }
    return json({ error: "Unknown action" }, 400);
  });
}

function EmbedCard({
  embed,
}: {
  embed: {
    embedType: string;
    name: string;
    description: string;
    kind: string;
    position: string;
    enabled: boolean;
    settings: Record<string, unknown>;
    settingsSchema: Record<string, unknown> | null;
    placement: { corner: "bottom_right" | "bottom_left"; offset: number; showOnPhones: boolean } | null;
  };
}) {
  const [settings, setSettings] = useState(embed.settings);
  return (
    <li className="card stack" data-testid={`embed-${embed.embedType}`}>
      <div className="section-title">
        <div>
          <h3>
            {embed.name} {embed.enabled ? <span className="badge ok">on</span> : <span className="badge">off</span>}
          </h3>
          <p className="muted small">
            {embed.kind === "GLOBAL_SCRIPT"
              ? `Script in the page ${embed.position === "head" ? "head" : "end"}`
              : `Floating widget, ${(embed.placement?.corner ?? embed.position).replace("_", " ")}${
                  embed.placement?.offset ? `, ${embed.placement.offset} px up` : ""
                }${embed.placement?.showOnPhones === false ? ", not on phones" : ""}`}
            {embed.description ? ` · ${embed.description}` : ""}
          </p>
        </div>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="embed" />
          <input type="hidden" name="embedType" value={embed.embedType} />
          <input type="hidden" name="enabled" value={embed.enabled ? "false" : "true"} />
          <SubmitButton className="button small" busyLabel={embed.enabled ? "Turning off…" : "Turning on…"}>
            {embed.enabled ? `Turn off ${embed.name}` : `Turn on ${embed.name}`}
          </SubmitButton>
        </Form>
      </div>
      {embed.placement ? <PlacementForm embed={embed} placement={embed.placement} /> : null}
      {embed.settingsSchema ? (
        <Form method="post" className="stack">
          <CsrfInput />
          <input type="hidden" name="intent" value="embed" />
          <input type="hidden" name="embedType" value={embed.embedType} />
          <input type="hidden" name="enabled" value={String(embed.enabled)} />
          <SettingsForm
            schema={embed.settingsSchema}
            value={settings}
            onChange={setSettings}
            name="settings"
            idPrefix={`embed-${embed.embedType}`}
          />
          <div>
            <SubmitButton className="button" busyLabel="Saving…">
              Save {embed.name} settings
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </li>
  );
}

/** Where a floating widget shows on the storefront: its corner, its offset above the bottom edge, phones (decision 061). */
function PlacementForm({
  embed,
  placement,
}: {
  embed: { embedType: string; name: string; enabled: boolean };
  placement: { corner: "bottom_right" | "bottom_left"; offset: number; showOnPhones: boolean };
}) {
  const id = `placement-${embed.embedType}`;
  return (
    <Form method="post" className="stack" aria-labelledby={`${id}-title`} data-testid={id}>
      <CsrfInput />
      <input type="hidden" name="intent" value="embed" />
      <input type="hidden" name="embedType" value={embed.embedType} />
      <input type="hidden" name="enabled" value={String(embed.enabled)} />
      <h4 id={`${id}-title`}>Where it shows</h4>
      <div className="grid-3">
        <div className="field">
          <label>
            Corner
            <select name="corner" defaultValue={placement.corner}>
              <option value="bottom_right">Bottom right</option>
              <option value="bottom_left">Bottom left</option>
            </select>
          </label>
        </div>
        <div className="field">
          <label>
            Offset from the bottom (px)
            <input
              name="offset"
              type="number"
              inputMode="numeric"
              min={0}
              max={400}
              step={1}
              defaultValue={placement.offset}
              aria-describedby={`${id}-help`}
            />
          </label>
        </div>
        <div className="field">
          <label className="check">
            <input type="checkbox" name="showOnPhones" defaultChecked={placement.showOnPhones} />
            Show on phones
          </label>
        </div>
      </div>
      <p id={`${id}-help`} className="muted small">
        0 to 400 px. Wherever you put it, the widget moves aside rather than cover your shop&apos;s header or its
        checkout buttons.
      </p>
      <div>
        <SubmitButton className="button" busyLabel="Saving…">
          Save where {embed.name} shows
        </SubmitButton>
      </div>
    </Form>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

/** The business's review of the app: write, edit, delete; the reason when our reviewers hid it. */
function ReviewSection({ data, error }: { data: Loaded; error?: string | null }) {
  const review = data.review;
  return (
    <section className="card stack" id="review" aria-labelledby="review-title">
      <h2 id="review-title">{review ? "Your review" : `Review ${data.app.name}`}</h2>
      {data.reviewBlocked && !review ? (
        <p className="muted">{data.reviewBlocked}</p>
      ) : (
        <>
          {review ? <OwnReviewStatus review={review} /> : null}
          <AppReviewForm appName={data.app.name} appSlug={data.appSlug} review={review} error={error} />
        </>
      )}
    </section>
  );
}

/** The done message after a change: what was saved, in words. */
function SavedMessage({ params, embeds }: { params: URLSearchParams; embeds: { embedType: string; name: string }[] }) {
  const saved = params.get("saved");
  if (!saved) return null;
  let message = "Saved.";
  if (saved === "settings") message = "Settings saved.";
  if (saved === "review") message = "Your review is saved. It shows on the app's marketplace page.";
  if (saved === "review-deleted") message = "Your review was deleted.";
  if (saved === "embed") {
    const name = embeds.find((e) => e.embedType === params.get("embed"))?.name ?? "The embed";
    const what = params.get("what");
    message =
      what === "on"
        ? `${name} is on: it shows on your storefront.`
        : what === "off"
          ? `${name} is off: it no longer shows on your storefront.`
          : what === "placement"
            ? `${name} moved: your storefront shows it there now.`
            : `${name} settings saved.`;
  }
  return (
    <p className="alert success" role="status">
      {message}
    </p>
  );
}

export default function InstalledApp() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [settings, setSettings] = useState<Record<string, unknown>>(data.settings);
  return (
    <div className="stack-lg">
      <header className="stack">
        <p>
          <Link to="/admin/apps">← Apps</Link>
        </p>
        <div className="installed-head">
          <AppIcon name={data.app.name} iconUrl={data.app.iconUrl} large />
          <div>
            <h1>
              {data.app.name} {data.isTestInstall ? <span className="badge info">test install</span> : null}
            </h1>
            <p className="lead">{data.app.description}</p>
          </div>
        </div>
      </header>
      {params.has("installed") && !result ? (
        <div className="alert success" role="status" data-testid="install-complete">
          <strong>{data.app.name} is installed.</strong> Choose its settings and storefront embeds below
          {data.adminPages.length ? "; its own pages are in your admin's menu." : "."} You find it again under{" "}
          <Link to="/admin/apps">Apps</Link>.
        </div>
      ) : null}
      {!result ? <SavedMessage params={params} embeds={data.embeds} /> : null}
      <ErrorAlert error={result?.error} />
      {data.adminPages.length ? (
        <Card title="Pages of this app">
          <p className="row">
            {data.adminPages.map((p) => (
              <Link key={p.pageId} to={`/admin/ext/${data.installationId}/${p.pageId}`} className="button">
                {p.title}
              </Link>
            ))}
          </p>
        </Card>
      ) : null}
      <Card title="App settings">
        {data.settingsSchema ? (
          <Form method="post" className="stack">
            <CsrfInput />
            <input type="hidden" name="intent" value="settings" />
            <SettingsForm
              schema={data.settingsSchema}
              value={settings}
              onChange={setSettings}
              name="settings"
              idPrefix="app-settings"
            />
            <div>
              <SubmitButton className="button primary" busyLabel="Saving…">
                Save settings
              </SubmitButton>
            </div>
          </Form>
        ) : (
          <p className="muted">This app has no settings.</p>
        )}
      </Card>
      <ReviewSection data={data} />
      <section className="stack">
        <h2>Storefront embeds</h2>
        {data.embeds.length === 0 ? (
          <p className="muted">This app adds nothing to your storefront pages.</p>
        ) : (
          <ul className="install-list">
            {data.embeds.map((e) => (
              <EmbedCard key={e.embedType} embed={e} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
