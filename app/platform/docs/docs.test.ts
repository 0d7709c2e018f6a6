import fs from "node:fs";
import path from "node:path";
import { Marked, type Token, type Tokens } from "marked";
import {
  DOCS,
  DOCS_INDEX_FILE,
  docsDir,
  findDoc,
  headingId,
  isSafeHref,
  neighbours,
  portalHrefFor,
  renderDoc,
  renderDocFile,
  renderMarkdown,
} from "./docs.server";

const lexer = new Marked({ gfm: true });
const read = (file: string) => fs.readFileSync(path.join(docsDir(), file), "utf8");

/** Every link token of a Markdown document (links inside code are not links). */
function links(markdown: string): string[] {
  const found: string[] = [];
  lexer.walkTokens(lexer.lexer(markdown), (t: Token) => {
    if (t.type === "link") found.push((t as Tokens.Link).href);
  });
  return found;
}

/** The fenced code blocks of a document, with their language. */
function codeBlocks(markdown: string): { lang: string; text: string }[] {
  const found: { lang: string; text: string }[] = [];
  lexer.walkTokens(lexer.lexer(markdown), (t: Token) => {
    if (t.type === "code") found.push({ lang: (t as Tokens.Code).lang ?? "", text: (t as Tokens.Code).text });
  });
  return found;
}

describe("developer docs", () => {
  it("lists files that exist, with unique slugs that do not shadow the API reference", () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(DOCS.map((d) => d.slug)).size).toBe(DOCS.length);
    expect(DOCS.map((d) => d.slug)).not.toContain("api");
    for (const d of DOCS) {
      expect(fs.existsSync(path.join(docsDir(), d.file)), d.file).toBe(true);
      expect(d.title.length).toBeGreaterThan(0);
      expect(d.summary.length).toBeGreaterThan(0);
    }
    expect(fs.existsSync(path.join(docsDir(), DOCS_INDEX_FILE))).toBe(true);
  });

  it.each(DOCS.map((d) => [d.slug, d] as const))("renders %s with an h1", (slug) => {
    const doc = renderDoc(slug, { platformUrl: "http://localhost:3000" })!;
    expect(doc).not.toBeNull();
    expect(doc.html.length).toBeGreaterThan(500);
    expect(doc.html).toMatch(/<h1 id="[^"]+">/);
    expect(doc.title.length).toBeGreaterThan(0);
    expect(doc.headings.filter((h) => h.depth === 2).length).toBeGreaterThan(0);
    // the placeholder is filled in, and ids are unique within the page
    expect(doc.html).not.toContain("{PLATFORM_URL}");
    // and the portal does not ask its reader to replace the address it filled in
    expect(doc.html).not.toContain("replace it with your");
    const ids = doc.headings.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers null for an unknown slug", () => {
    expect(renderDoc("no-such-guide")).toBeNull();
    expect(findDoc("api")).toBeUndefined();
  });

  it("links between guides point to existing guides and existing headings", () => {
    const idsOf = (file: string) => new Set(renderMarkdown(read(file)).headings.map((h) => h.id));
    const problems: string[] = [];
    for (const file of [DOCS_INDEX_FILE, ...DOCS.map((d) => d.file)]) {
      for (const href of links(read(file))) {
        if (/^(https?:|mailto:)/i.test(href)) continue;
        // a guide is read in the portal and in the repository alike: a link to a platform path works
        // in one of them only, so platform addresses are written as `{PLATFORM_URL}/…` code instead
        if (href.startsWith("/")) {
          problems.push(`${file}: ${href} is a platform path, dead when the guide is read in the repository`);
          continue;
        }
        const [target, anchor] = href.startsWith("#") ? [file, href.slice(1)] : href.split("#");
        if (!/^[A-Za-z0-9_-]+\.md$/.test(target)) {
          problems.push(`${file}: ${href} is not a link to a guide`);
          continue;
        }
        if (target !== DOCS_INDEX_FILE && !DOCS.some((d) => d.file === target)) {
          problems.push(`${file}: ${href} names a guide that does not exist`);
          continue;
        }
        if (anchor && !idsOf(target).has(anchor)) problems.push(`${file}: ${href} names a heading that does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the index links every guide", () => {
    const hrefs = links(read(DOCS_INDEX_FILE));
    for (const d of DOCS) expect(hrefs, d.file).toContain(d.file);
  });

  it("rewrites guide links to portal pages", () => {
    expect(portalHrefFor("webhooks.md#retries")).toBe("/portal/docs/webhooks#retries");
    expect(portalHrefFor("api.md")).toBe("/portal/docs/app-api");
    expect(portalHrefFor("README.md")).toBe("/portal/docs");
    expect(portalHrefFor("https://example.com/x.md")).toBeNull();
    const { html } = renderDocFile("getting-started.md");
    expect(html).toContain('href="/portal/docs/authentication#scopes"');
    expect(html).not.toMatch(/href="[^"]*\.md/);
  });

  it("has webhook verification snippets for Node, Python and PHP", () => {
    const blocks = codeBlocks(read("webhooks.md"));
    const node = blocks.filter((b) => ["js", "ts", "javascript", "typescript"].includes(b.lang));
    expect(
      node.some((b) => b.text.includes("verifyWebhook(req.body, req.headers, secret, { toleranceSeconds: 300 })")),
    ).toBe(true);
    expect(node.some((b) => b.text.includes("timingSafeEqual") && b.text.includes("createHmac"))).toBe(true);
    const python = blocks.filter((b) => b.lang === "python");
    expect(
      python.some(
        (b) =>
          b.text.includes("hmac.compare_digest") && b.text.includes("hashlib.sha256") && b.text.includes("time.time()"),
      ),
    ).toBe(true);
    const php = blocks.filter((b) => b.lang === "php");
    expect(php.some((b) => b.text.includes("hash_hmac('sha256'") && b.text.includes("hash_equals"))).toBe(true);
    const { html } = renderDocFile("webhooks.md");
    for (const lang of ["js", "python", "php"]) expect(html).toContain(`class="language-${lang}"`);
  });

  it("gives headings GitHub-style ids, unique within a document", () => {
    expect(headingId("The OAuth 2.0 install flow")).toBe("the-oauth-20-install-flow");
    expect(headingId("Payments, expiry and reporting")).toBe("payments-expiry-and-reporting");
    const { html, headings } = renderMarkdown("# Title\n\n## Same\n\n## Same\n\n### `order.validate`\n");
    expect(headings.map((h) => h.id)).toEqual(["title", "same", "same-1", "ordervalidate"]);
    expect(html).toContain('<h2 id="same-1">Same</h2>');
    expect(html).toContain('<h3 id="ordervalidate"><code>order.validate</code></h3>');
  });

  it("renders GFM tables and escapes raw HTML and unsafe links", () => {
    const { html } = renderMarkdown(
      "| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) [z](https://example.com)\n",
    );
    // a table or a code block that may scroll sideways can be scrolled from the keyboard
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain("<td>1</td>");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('href="https://example.com"');
    expect(isSafeHref("java\tscript:alert(1)")).toBe(false);
    expect(isSafeHref("//evil.example")).toBe(false);
    expect(isSafeHref("hooks.md#x")).toBe(true);
  });

  it("makes code blocks focusable and names task-list boxes by their state", () => {
    const { html } = renderMarkdown('```json\n{"a": "<b>"}\n```\n\n- [x] shipped\n- [ ] next\n');
    expect(html).toContain('<pre tabindex="0"><code class="language-json">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}');
    expect(html).toContain('<input type="checkbox" disabled checked aria-label="Done"> shipped');
    expect(html).toContain('<input type="checkbox" disabled aria-label="Not done"> next');
  });

  it("links neighbours in reading order", () => {
    expect(neighbours(DOCS[0].slug)).toEqual({ prev: null, next: DOCS[1] });
    expect(neighbours(DOCS[DOCS.length - 1].slug).next).toBeNull();
  });

  it("caches per file modification time and platform address", () => {
    const a = renderDocFile("analytics.md", { platformUrl: "http://a.test" });
    expect(renderDocFile("analytics.md", { platformUrl: "http://a.test" })).toBe(a);
    expect(a.html).toContain("http://a.test/developer/apps/");
    const b = renderDocFile("analytics.md", { platformUrl: "http://b.test" });
    expect(b.html).toContain("http://b.test/developer/apps/");
  });
});
