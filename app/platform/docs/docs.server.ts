/**
 * The developer guides (docs/developers/*.md) rendered for the portal with marked (GFM). The
 * Markdown is ours; raw HTML inside it is escaped, never passed through, and links are limited to
 * http(s), mailto, relative paths and anchors. Links between guides (`webhooks.md#retries`) become
 * portal links. Headings get GitHub-style ids for anchors. Rendered HTML is cached per file
 * modification time (and platform address, which replaces `{PLATFORM_URL}` in the examples).
 */
import fs from "node:fs";
import path from "node:path";
import { Marked, Renderer, type Token, type Tokens } from "marked";

export type DocEntry = { slug: string; title: string; summary: string; file: string };
export type DocHeading = { id: string; text: string; depth: number };
export type RenderedDoc = { title: string; html: string; headings: DocHeading[] };

/** The guides in reading order. `api` is taken by the generated API reference page, hence `app-api`. */
export const DOCS: readonly DocEntry[] = [
  {
    slug: "getting-started",
    title: "Getting started",
    summary: "From a new account to a test-installed app that calls the API and receives a webhook.",
    file: "getting-started.md",
  },
  {
    slug: "authentication",
    title: "Authentication and scopes",
    summary: "Developer JWT, the OAuth 2.0 install flow with PKCE, tokens, scopes, re-consent and uninstall.",
    file: "authentication.md",
  },
  {
    slug: "app-api",
    title: "The App API",
    summary: "Pagination, money, order updates, guest orders, payments, rate limits and errors.",
    file: "api.md",
  },
  {
    slug: "webhooks",
    title: "Webhooks",
    summary: "Event catalogue, envelope, signature verification in Node, Python and PHP, retries, data erasure.",
    file: "webhooks.md",
  },
  {
    slug: "hooks",
    title: "Checkout hooks",
    summary: "The five hook points, their requests and answers, combining rules, timeouts and the circuit breaker.",
    file: "hooks.md",
  },
  {
    slug: "extensions",
    title: "Extensions",
    summary: "The manifest, settings forms, blocks and their message protocol, embeds and admin pages.",
    file: "extensions.md",
  },
  {
    slug: "sdk",
    title: "The SDK and the CLI",
    summary:
      "storefront-apps listen and trigger, webhook verification, OAuth helpers, the typed App API client and the block bridge.",
    file: "sdk.md",
  },
  {
    slug: "billing",
    title: "Charging for your app",
    summary: "Pricing plans, the merchant's approval, usage under a cap, test charges, invoices and earnings.",
    file: "billing.md",
  },
  {
    slug: "test-clock",
    title: "Test a paid app through a year in a minute",
    summary:
      "The sandbox's clock: billing periods closing into test invoices, trials, expiring charges, the erasure; trigger fixtures.",
    file: "test-clock.md",
  },
  {
    slug: "analytics",
    title: "Analytics",
    summary: "Install and webhook delivery figures of your app, and what they count.",
    file: "analytics.md",
  },
  {
    slug: "reviews",
    title: "Ratings and reviews",
    summary: "Who may review your app, answering reviews, notifications and release notes.",
    file: "reviews.md",
  },
  {
    slug: "privacy",
    title: "Customer privacy",
    summary: "customer.data_request and customer.redact: who gets them, what to do, what erased data looks like.",
    file: "privacy.md",
  },
  {
    slug: "review-guidelines",
    title: "Review guidelines",
    summary: "What reviewers check, the app states, and what approval and rejection do.",
    file: "review-guidelines.md",
  },
];

/** The index of the guides (not a page of its own: /portal/docs is the index). */
export const DOCS_INDEX_FILE = "README.md";
export const PLATFORM_URL_PLACEHOLDER = "{PLATFORM_URL}";
/** The guides' note on the placeholder, as each guide writes it (one or two lines). */
const PLACEHOLDER_NOTE =
  /Examples use `\{PLATFORM_URL\}` for the platform's address\. Outside the portal, replace it with your\s+platform's address \(locally `http:\/\/localhost:3000`[^)]*\)\./;

export function docsDir(): string {
  return path.join(process.cwd(), "docs", "developers");
}

export function findDoc(slug: string | undefined): DocEntry | undefined {
  return DOCS.find((d) => d.slug === slug);
}

/** The portal address of a relative link to a guide (`hooks.md#x`), or null when it is not one. */
export function portalHrefFor(href: string): string | null {
  const match = /^(?:\.\/)?([A-Za-z0-9_-]+\.md)(#[^\s]*)?$/.exec(href);
  if (!match) return null;
  const [, file, hash = ""] = match;
  if (file === DOCS_INDEX_FILE) return `/portal/docs${hash}`;
  const entry = DOCS.find((d) => d.file === file);
  return entry ? `/portal/docs/${entry.slug}${hash}` : null;
}

/** http(s), mailto, or a relative link without a scheme (never javascript:, data:, //host…). */
export function isSafeHref(href: string): boolean {
  const h = href.replace(/[\u0000-\u0020\u007f]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(h);
  if (scheme) return ["http", "https", "mailto"].includes(scheme[1].toLowerCase());
  return !/^[/\\]{2}/.test(h);
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The plain text of inline tokens (code spans keep their text, markup is dropped). */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => {
      const nested = (t as { tokens?: Token[] }).tokens;
      if (nested && nested.length) return plainText(nested);
      return "text" in t && typeof t.text === "string" ? t.text : "";
    })
    .join("");
}

/** GitHub's heading ids: lower case, punctuation dropped (not `-` or `_`), spaces to hyphens. */
export function headingId(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

type HeadingWithId = Tokens.Heading & { id?: string };

const defaultRenderer = new Renderer();

const marked = new Marked({
  gfm: true,
  renderer: {
    heading(token) {
      const id = (token as HeadingWithId).id;
      const inner = this.parser.parseInline(token.tokens);
      return `<h${token.depth}${id ? ` id="${escapeHtml(id)}"` : ""}>${inner}</h${token.depth}>\n`;
    },
    // code blocks and tables may scroll sideways: focusable, so that a keyboard can scroll them
    code(token) {
      return defaultRenderer.code.call(this, token).replace(/^<pre>/, '<pre tabindex="0">');
    },
    table(token) {
      return defaultRenderer.table.call(this, token).replace(/^<table>/, '<table tabindex="0">');
    },
    // a task list's box is read out with its state (it is not a form control anyone can tick)
    checkbox({ checked }) {
      return `<input type="checkbox" disabled${checked ? " checked" : ""} aria-label="${checked ? "Done" : "Not done"}"> `;
    },
    // raw HTML in the Markdown is shown as text, never rendered
    html(token) {
      return escapeHtml(token.text);
    },
  },
});

/** Renders Markdown: heading ids (unique within the document), guide links rewritten, unsafe links neutralised. */
export function renderMarkdown(markdown: string): RenderedDoc {
  const tokens = marked.lexer(markdown);
  const headings: DocHeading[] = [];
  const used = new Map<string, number>();
  marked.walkTokens(tokens, (token) => {
    if (token.type === "heading") {
      const heading = token as HeadingWithId;
      const text = plainText(heading.tokens);
      const base = headingId(text) || "section";
      const n = used.get(base) ?? 0;
      used.set(base, n + 1);
      heading.id = n === 0 ? base : `${base}-${n}`;
      headings.push({ id: heading.id, text, depth: heading.depth });
    } else if (token.type === "link") {
      const link = token as Tokens.Link;
      const portal = portalHrefFor(link.href);
      if (portal) link.href = portal;
      else if (!isSafeHref(link.href)) link.href = "#";
    } else if (token.type === "image") {
      const image = token as Tokens.Image;
      if (!/^(https?:\/\/|\/(?!\/))/i.test(image.href)) image.href = "";
    }
  });
  const html = marked.parser(tokens);
  const title = headings.find((h) => h.depth === 1)?.text ?? "";
  return { title, html, headings };
}

const cache = new Map<string, { mtimeMs: number; platformUrl: string; doc: RenderedDoc }>();

/** Reads and renders one Markdown file of docs/developers (cached per modification time). */
export function renderDocFile(file: string, options: { platformUrl?: string } = {}): RenderedDoc {
  const full = path.join(docsDir(), path.basename(file));
  const { mtimeMs } = fs.statSync(full);
  const platformUrl = options.platformUrl ?? "";
  const cached = cache.get(full);
  if (cached && cached.mtimeMs === mtimeMs && cached.platformUrl === platformUrl) return cached.doc;
  let source = fs.readFileSync(full, "utf8");
  if (platformUrl)
    source = source
      // the portal fills the address in: the note telling a reader to replace it is for GitHub's reader only
      .replace(PLACEHOLDER_NOTE, "Examples use this platform's address, `{PLATFORM_URL}`: copy them as they are.")
      .split(PLATFORM_URL_PLACEHOLDER)
      .join(platformUrl);
  const doc = renderMarkdown(source);
  cache.set(full, { mtimeMs, platformUrl, doc });
  return doc;
}

/** One guide by slug, rendered; null for an unknown slug. */
export function renderDoc(
  slug: string,
  options: { platformUrl?: string } = {},
): (RenderedDoc & { entry: DocEntry }) | null {
  const entry = findDoc(slug);
  if (!entry) return null;
  return { ...renderDocFile(entry.file, options), entry };
}

/** The guides before and after one, for prev/next links. */
export function neighbours(slug: string): { prev: DocEntry | null; next: DocEntry | null } {
  const i = DOCS.findIndex((d) => d.slug === slug);
  return { prev: i > 0 ? DOCS[i - 1] : null, next: i >= 0 && i < DOCS.length - 1 ? DOCS[i + 1] : null };
}
