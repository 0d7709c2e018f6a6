import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import type { BlockDef, Manifest } from "~/platform/shapes/manifest";
import { BlockFrame } from "~/components/block-frame";
import { SettingsForm } from "~/components/settings-form";
import { EmptyState } from "~/components/area-layout";
import { AppPageHeader } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Block preview${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business, app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const manifest = (app.manifest as Manifest | null) ?? {};
  const blocks = manifest.blocks ?? [];
  // the blocks' iframes and their JSON-Schema settings forms (page-csp.server.ts)
  return json({
    app: { id: app.id, name: app.name },
    blocks,
    businessId: business?.id ?? "",
    locale: business?.locale ?? "en-US",
    cspFrameOrigins: blocks.map((b) => b.renderUrl),
    cspEval: true,
  });
}

function BlockPreview({ block, businessId, locale }: { block: BlockDef; businessId: string; locale: string }) {
  const [settings, setSettings] = useState<Record<string, unknown>>(block.defaultConfig ?? {});
  return (
    <section className="card preview" data-testid={`preview-${block.blockType}`}>
      <div className="section-title">
        <h2>{block.name}</h2>
        <code className="muted small">{block.blockType}</code>
      </div>
      {block.description ? <p className="muted">{block.description}</p> : null}
      <div className="builder-grid">
        <div className="canvas">
          <BlockFrame
            blockId={`preview-${block.blockType}`}
            renderUrl={block.renderUrl}
            settings={settings}
            businessId={businessId}
            locale={locale}
            mode="editor"
            title={`${block.name} preview`}
          />
        </div>
        <aside className="panel">
          <h3>Settings</h3>
          {block.settingsSchema ? (
            <SettingsForm
              schema={block.settingsSchema}
              value={settings}
              onChange={setSettings}
              idPrefix={`preview-${block.blockType}`}
            />
          ) : (
            <p className="muted">This block has no settings.</p>
          )}
          <details>
            <summary className="small">Settings sent to the block</summary>
            <pre tabIndex={0}>{JSON.stringify(settings, null, 2)}</pre>
          </details>
        </aside>
      </div>
    </section>
  );
}

export default function Preview() {
  const { app, blocks, businessId, locale } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Block preview">
        Each block of the manifest as the site builder shows it, before any install. Change a setting: the block
        receives SERVICE_BLOCK_UPDATE at once, without reloading.
      </AppPageHeader>
      {blocks.length === 0 ? (
        <EmptyState title="No blocks in the manifest">
          Add blocks in the <Link to={`/portal/apps/${app.id}/manifest`}>manifest</Link> to preview them here.
        </EmptyState>
      ) : (
        blocks.map((b) => <BlockPreview key={b.blockType} block={b} businessId={businessId} locale={locale} />)
      )}
    </div>
  );
}
