/**
 * A CSP nobody can widen (docs/security.md): whatever URL a manifest or an app record may hold, the
 * storefront's and the platform's policies contain only the directives they emit and, in their
 * source lists, only fixed keywords and exact origins. Property-based (fast-check) over the
 * manifest validator, the app-record URL validator, originOf and both policy builders, plus the two
 * injections that once worked (`https://*\/a.js`, `http://x;sandbox/a.js`).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateManifest } from "../shapes/manifest";
import { storefrontCsp } from "../runtime/csp.server";
import { platformPageCsp } from "../runtime/page-csp.server";
import { exactOrigin as originOf } from "../core/urls";
import { webUrl } from "../core/validation.server";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";

const NONCE = "bm9uY2U=";
const EXACT_ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d+)?$|^https?:\/\/\[[0-9a-f:.]+\](:\d+)?$/;
const STOREFRONT_DIRECTIVES = [
  "default-src",
  "script-src",
  "frame-src",
  "img-src",
  "style-src",
  "connect-src",
  "font-src",
  "object-src",
  "base-uri",
  "form-action",
  "frame-ancestors",
];
const PLATFORM_DIRECTIVES = [
  "default-src",
  "script-src",
  "style-src",
  "img-src",
  "font-src",
  "connect-src",
  "frame-src",
  "object-src",
  "base-uri",
  "form-action",
  "frame-ancestors",
];
/** The keywords storefrontCsp itself puts into script-src and frame-src. */
const STOREFRONT_KEYWORDS = new Set(["'self'", `'nonce-${NONCE}'`, "'none'"]);
/** The keywords platformPageCsp itself puts into script-src, frame-src and form-action. */
const PLATFORM_KEYWORDS = new Set(["'self'", `'nonce-${NONCE}'`, "'none'", "'strict-dynamic'", "'unsafe-eval'"]);

/** The policy's directives, each with its sources; one policy (no comma), no control characters. */
function parse(policy: string): Map<string, string[]> {
  expect(policy, "a comma would start a second policy").not.toContain(",");
  expect(/[\u0000-\u001f\u007f]/.test(policy), `control character in ${JSON.stringify(policy)}`).toBe(false);
  const map = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    expect(map.has(name), `directive ${name} twice in ${policy}`).toBe(false);
    map.set(name, sources);
  }
  return map;
}

/** Exactly the builder's directives; every source of the lists an app's URL can reach is one of its keywords or an exact origin. */
function expectOnlyExact(policy: string, directives: string[], lists: string[], keywords: Set<string>) {
  const parsed = parse(policy);
  expect([...parsed.keys()]).toEqual(directives);
  for (const list of lists)
    for (const source of parsed.get(list)!)
      expect(
        keywords.has(source) || EXACT_ORIGIN.test(source),
        `${list} source ${JSON.stringify(source)} in ${policy}`,
      ).toBe(true);
  return parsed;
}

/** URL-like strings built from the pieces that once widened a policy (or might), and plain noise. */
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl({
    validSchemes: ["http", "https"],
    authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
  }),
  fc
    .tuple(
      fc.constantFrom(
        "http://",
        "https://",
        "HTTPS://",
        "hTTp://",
        "javascript:",
        "data:",
        "blob:",
        "//",
        "http:/",
        "https:\\\\",
        "ftp://",
        "ws://",
        "",
      ),
      fc
        .array(
          fc.constantFrom(
            "*",
            ";",
            ",",
            "'",
            '"',
            "`",
            " ",
            "\t",
            "\n",
            "\r",
            "\u00a0",
            "\u3000",
            "sandbox",
            "x",
            "a.b",
            "EXAMPLE.com",
            "'self'",
            "'unsafe-inline'",
            "'unsafe-eval'",
            "'nonce-abc'",
            "'strict-dynamic'",
            "data:",
            "blob:",
            "https:",
            "@",
            "u:p@",
            ":",
            "%20",
            "%2A",
            "%3B",
            "%2C",
            "%27",
            "é",
            "ß",
            "\u0130",
            "🙂",
            "\u200b",
            "\uff0a",
            "[::1]",
            "[2001:db8::1]",
            "127.0.0.1",
            "0x7f.1",
            "-",
            "_",
            "..",
            "*.",
            "report-uri",
            "\\",
            "/",
            "?",
            "#",
          ),
          { maxLength: 8 },
        )
        .map((a) => a.join("")),
      fc.constantFrom("", ":8080", ":443", ":80", ":99999", ":x", ":*"),
      fc.constantFrom("/", "/a.js", "/a.js?x=1;sandbox", "/%3B", "/'self'", "/ *", "#frag", ""),
    )
    .map(([scheme, host, port, path]) => scheme + host + port + path),
);

/** Two script embeds whose URLs would widen a CSP: a wildcard host, and a `;` starting a directive. */
const HOSTILE_SCRIPT_EMBEDS = [
  { embedType: "star", name: "S", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl: "https://*/a.js" },
  { embedType: "inject", name: "I", kind: "GLOBAL_SCRIPT", position: "body_end", scriptUrl: "http://x;sandbox/a.js" },
];

describe("a CSP nobody can widen", () => {
  it("whatever URL the manifest validator accepts, originOf + storefrontCsp yield only the builder's keywords and exact origins", () => {
    const SLOTS = [
      "blocks[0].renderUrl",
      "embeds[0].scriptUrl",
      "embeds[1].renderUrl",
      "adminPages[0].renderUrl",
    ] as const;
    let accepted = 0;
    fc.assert(
      // one slot holds the hostile URL, the others a fixed valid one, so that acceptance is common enough to test
      fc.property(fc.constantFrom(...SLOTS), hostile, (slot, url) => {
        const at = (s: (typeof SLOTS)[number], fallback: string) => (slot === s ? url : fallback);
        const blockUrl = at("blocks[0].renderUrl", "https://blocks.example/b");
        const scriptUrl = at("embeds[0].scriptUrl", "https://cdn.example/a.js");
        const widgetUrl = at("embeds[1].renderUrl", "https://widget.example/w");
        const adminUrl = at("adminPages[0].renderUrl", "https://admin.example/p");
        const manifest = {
          blocks: [{ blockType: "b", name: "B", renderUrl: blockUrl }],
          embeds: [
            { embedType: "s", name: "S", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl },
            { embedType: "w", name: "W", kind: "FLOATING_WIDGET", position: "bottom_right", renderUrl: widgetUrl },
          ],
          adminPages: [{ pageId: "p", title: "P", renderUrl: adminUrl }],
        };
        const problems = validateManifest(manifest);
        if (problems.length) {
          // refused with 400 naming the field that holds the URL: nothing is stored
          expect(
            problems.every((m) => m.startsWith(`${slot}:`)),
            `${JSON.stringify(url)}: ${problems.join("; ")}`,
          ).toBe(true);
          return;
        }
        accepted++;
        // what s.$businessSlug.tsx does: originOf each URL, keep the non-null ones
        const scriptOrigins = [originOf(scriptUrl)].filter((o): o is string => !!o);
        const frameOrigins = [originOf(widgetUrl), originOf(blockUrl)].filter((o): o is string => !!o);
        const policy = storefrontCsp(NONCE, { scriptOrigins, frameOrigins });
        const parsed = expectOnlyExact(policy, STOREFRONT_DIRECTIVES, ["script-src", "frame-src"], STOREFRONT_KEYWORDS);
        // the validator and the builder agree: an accepted URL's origin is really in the policy
        expect(parsed.get("script-src")).toContain(new URL(scriptUrl).origin);
        expect(parsed.get("frame-src")).toEqual(
          expect.arrayContaining([new URL(blockUrl).origin, new URL(widgetUrl).origin]),
        );
        expect(originOf(adminUrl)).toBe(new URL(adminUrl).origin);
      }),
      { numRuns: 3000 },
    );
    expect(accepted, "the property must not be vacuous").toBeGreaterThan(300);
  });

  it("whatever URL the app-record validator (webUrl) accepts has an exact origin, https only in production", () => {
    let accepted = 0;
    fc.assert(
      fc.property(hostile, fc.boolean(), (raw, isProduction) => {
        const parsed = webUrl({ isProduction }).safeParse(raw);
        if (!parsed.success) return;
        accepted++;
        const origin = originOf(parsed.data);
        expect(origin, parsed.data).toMatch(EXACT_ORIGIN);
        if (isProduction) expect(origin!.startsWith("https://")).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(accepted, "the property must not be vacuous").toBeGreaterThan(300);
  });

  it("even strings a database row might hold reach neither policy unless they are exactly an origin", () => {
    fc.assert(
      fc.property(
        fc.array(hostile, { maxLength: 5 }),
        fc.array(hostile, { maxLength: 5 }),
        fc.boolean(),
        (a, b, evalNeeded) => {
          const storefront = expectOnlyExact(
            storefrontCsp(NONCE, { scriptOrigins: a, frameOrigins: b }),
            STOREFRONT_DIRECTIVES,
            ["script-src", "frame-src"],
            STOREFRONT_KEYWORDS,
          );
          // the storefront builder drops, never repairs: a source is one of the given strings, verbatim, and its own origin
          for (const source of [...storefront.get("script-src")!, ...storefront.get("frame-src")!].filter(
            (s) => !STOREFRONT_KEYWORDS.has(s),
          )) {
            expect([...a, ...b]).toContain(source);
            expect(new URL(source).origin).toBe(source);
          }
          expectOnlyExact(
            platformPageCsp(NONCE, { frameOrigins: a, formActionOrigins: b, eval: evalNeeded }),
            PLATFORM_DIRECTIVES,
            ["script-src", "frame-src", "form-action"],
            PLATFORM_KEYWORDS,
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("storefrontCsp keeps exact origins and drops everything else", () => {
    const policy = storefrontCsp(NONCE, {
      scriptOrigins: [
        "https://cdn.example",
        "https://cdn.example",
        "https://*",
        "http://x;sandbox",
        "https://cdn.example/a.js",
        "HTTPS://CDN.EXAMPLE",
        "'unsafe-inline'",
        "data:",
        "https://a.example:8443",
      ],
      frameOrigins: [
        "https://[2001:db8::1]:8443",
        "https://a.example, https://b.example",
        "https://u:p@a.example",
        "http://127.0.0.1:4000",
      ],
    });
    const parsed = parse(policy);
    expect(parsed.get("script-src")).toEqual([
      "'self'",
      `'nonce-${NONCE}'`,
      "https://a.example:8443",
      "https://cdn.example",
    ]);
    expect(parsed.get("frame-src")).toEqual(["http://127.0.0.1:4000", "https://[2001:db8::1]:8443"]);
    expect(parse(storefrontCsp(NONCE, { scriptOrigins: ["https://*"], frameOrigins: ["*"] })).get("frame-src")).toEqual(
      ["'none'"],
    );
    expect(parse(storefrontCsp(NONCE, null)).get("script-src")).toEqual(["'self'", `'nonce-${NONCE}'`]);
  });

  it("refuses a wildcard or an injected directive in a manifest URL with 400 naming the field", () => {
    const problems = validateManifest({
      blocks: [{ blockType: "b", name: "B", renderUrl: "https://*.example.com/b" }],
      embeds: [
        ...HOSTILE_SCRIPT_EMBEDS,
        {
          embedType: "comma",
          name: "C",
          kind: "FLOATING_WIDGET",
          position: "bottom_left",
          renderUrl: "https://a.example,b.example/w",
        },
      ],
      adminPages: [{ pageId: "p", title: "P", renderUrl: "https://user:pass@admin.example/p" }],
    });
    expect(problems).toEqual([
      'blocks[0].renderUrl: has an invalid host "*.example.com": only letters, digits, hyphens and dots (or an IP address) are allowed',
      'embeds[0].scriptUrl: has an invalid host "*": only letters, digits, hyphens and dots (or an IP address) are allowed',
      'embeds[1].scriptUrl: has an invalid host "x;sandbox": only letters, digits, hyphens and dots (or an IP address) are allowed',
      'embeds[2].renderUrl: has an invalid host "a.example,b.example": only letters, digits, hyphens and dots (or an IP address) are allowed',
      "adminPages[0].renderUrl: may not contain credentials (user:password@)",
    ]);
    // the app record's URLs follow the same rule
    for (const bad of [
      "https://*/cb",
      "http://x;sandbox/cb",
      "https://a'b.example/",
      'https://a"b.example/',
      "https://a_b.example/",
      "https://u:p@x.example/",
      "https://u@x.example/",
      "javascript:alert(1)",
      "data:text/html,x",
      "/relative",
    ])
      expect(webUrl({ isProduction: false }).safeParse(bad).success, bad).toBe(false);
    for (const good of [
      "https://app.example.com/cb",
      "http://127.0.0.1:4000/x",
      "https://[2001:db8::1]:8443/x",
      "https://xn--bcher-kva.example/",
      "https://bücher.example/",
    ])
      expect(webUrl({ isProduction: false }).safeParse(good).success, good).toBe(true);
    expect(webUrl({ isProduction: true }).safeParse("http://app.example/cb").success).toBe(false);
  });

  it("answers those URLs with 400 naming the field through the API", async () => {
    const p = await startPlatform();
    const dev = await p.register("DEVELOPER");
    const refused: [Record<string, unknown>, string][] = [
      [{ redirectUrl: "https://*/cb" }, "redirectUrl"],
      [{ webhookUrl: "http://x;sandbox/hooks" }, "webhookUrl"],
      [{ iconUrl: "https://a,b.example/i.png" }, "iconUrl"],
      [{ screenshots: ["https://ok.example/1.png", "https://u:p@x.example/2.png"] }, "screenshots.1"],
    ];
    for (const [override, field] of refused) {
      const res = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody(override) });
      expect(res.status, field).toBe(400);
      expect(res.json.message, field).toContain(field);
    }
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    expect(created.status).toBe(201);
    const update = await p.request("PATCH", `/developer/apps/${created.json.id}`, {
      token: dev.token,
      body: { redirectUrl: "https://*/cb" },
    });
    expect(update.status).toBe(400);
    expect(update.json.message).toContain("redirectUrl");
    const manifest = await p.request("PUT", `/developer/apps/${created.json.id}/manifest`, {
      token: dev.token,
      body: {
        embeds: HOSTILE_SCRIPT_EMBEDS,
      },
    });
    expect(manifest.status).toBe(400);
    expect(manifest.json.message).toContain("embeds[0].scriptUrl");
    expect(manifest.json.message).toContain("embeds[1].scriptUrl");
  });
});
