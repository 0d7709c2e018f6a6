/**
 * A CSP nobody can widen (docs/security.md): whatever URL a manifest may hold, the storefront's and
 * the platform's policies contain only the directives they emit and, in their source lists, only
 * fixed keywords and exact origins. Property-based (fast-check) over the manifest validator and
 * both policy builders, plus the two injections that once worked.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateManifest } from "./manifest-schema";
import { storefrontCsp } from "../runtime/csp.server";
import { platformPageCsp } from "../runtime/page-csp.server";
import { exactOrigin } from "../core/urls";
import { webUrl } from "../core/validation.server";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";

const EXACT_ORIGIN = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/;
const STOREFRONT_DIRECTIVES = ["default-src", "script-src", "frame-src", "img-src", "style-src", "connect-src", "font-src", "object-src", "base-uri", "form-action", "frame-ancestors"];
const PLATFORM_DIRECTIVES = ["default-src", "script-src", "style-src", "img-src", "font-src", "connect-src", "frame-src", "object-src", "base-uri", "form-action", "frame-ancestors"];

/** The policy's directives, each with its sources. */
function parse(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    expect(map.has(name), `directive ${name} twice in ${policy}`).toBe(false);
    map.set(name, sources);
  }
  return map;
}

/** Every source of the lists an app's URL can reach is a keyword the builder emits or an exact origin. */
function expectOnlyExact(policy: string, directives: string[], lists: string[]) {
  const parsed = parse(policy);
  expect([...parsed.keys()]).toEqual(directives);
  for (const list of lists)
    for (const source of parsed.get(list)!)
      expect(/^'(self|none|strict-dynamic|unsafe-eval|nonce-[A-Za-z0-9+/=]+)'$/.test(source) || EXACT_ORIGIN.test(source), `${list} source ${JSON.stringify(source)} in ${policy}`).toBe(true);
}

/** URL-like strings built from the pieces that once widened a policy, and plain noise. */
const hostile = fc.oneof(
  fc.string(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom("http://", "https://", "HTTPS://", "javascript:", "data:", "//", "http:/", "ftp://"),
      fc.array(fc.constantFrom("*", ";", ",", "'", '"', " ", "\t", "sandbox", "x", "a.b", "'self'", "'unsafe-inline'", "data:", "@", ":", "%20", "é", "[::1]", "127.0.0.1", "-", "_", "..", "*.", "report-uri"), { maxLength: 6 }).map((a) => a.join("")),
      fc.constantFrom("", ":8080", ":99999", ":x"),
      fc.constantFrom("/", "/a.js", "/a.js?x=1;sandbox", "/%3B", "#frag", ""),
    )
    .map(([scheme, host, port, path]) => scheme + host + port + path),
);

describe("a CSP nobody can widen", () => {
  it("whatever URL the manifest validator accepts, the storefront's policy holds only exact origins", () => {
    fc.assert(
      fc.property(hostile, hostile, (scriptUrl, renderUrl) => {
        const manifest = { blocks: [{ blockType: "b", name: "B", renderUrl }], embeds: [{ embedType: "e", name: "E", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl }] };
        if (validateManifest(manifest).length) return; // refused: nothing is stored
        const policy = storefrontCsp("bm9uY2U=", { scriptOrigins: [exactOrigin(scriptUrl)!], frameOrigins: [exactOrigin(renderUrl)!] });
        expectOnlyExact(policy, STOREFRONT_DIRECTIVES, ["script-src", "frame-src"]);
        // and the accepted URL's origin is really in it
        expect(parse(policy).get("script-src")).toContain(new URL(scriptUrl).origin);
      }),
      { numRuns: 2000 },
    );
  });

  it("even strings a database row might hold reach neither policy unless they are exact origins", () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 5 }), fc.array(hostile, { maxLength: 5 }), fc.boolean(), (a, b, evalNeeded) => {
        expectOnlyExact(storefrontCsp("bm9uY2U=", { scriptOrigins: a, frameOrigins: b }), STOREFRONT_DIRECTIVES, ["script-src", "frame-src"]);
        expectOnlyExact(platformPageCsp("bm9uY2U=", { frameOrigins: a, formActionOrigins: b, eval: evalNeeded }), PLATFORM_DIRECTIVES, ["script-src", "frame-src", "form-action"]);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a wildcard or an injected directive in a manifest URL with 400 naming the field", () => {
    const problems = validateManifest({
      blocks: [{ blockType: "b", name: "B", renderUrl: "https://*.example.com/b" }],
      embeds: [
        { embedType: "star", name: "S", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl: "https://*/a.js" },
        { embedType: "inject", name: "I", kind: "GLOBAL_SCRIPT", position: "body_end", scriptUrl: "http://x;sandbox/a.js" },
        { embedType: "comma", name: "C", kind: "FLOATING_WIDGET", position: "bottom_left", renderUrl: "https://a.example,b.example/w" },
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
    for (const bad of ["https://*/cb", "http://x;sandbox/cb", "https://a'b.example/", "https://u:p@x.example/"]) expect(webUrl({ isProduction: false }).safeParse(bad).success, bad).toBe(false);
    for (const good of ["https://app.example.com/cb", "http://127.0.0.1:4000/x", "https://[2001:db8::1]:8443/x", "https://xn--bcher-kva.example/"]) expect(webUrl({ isProduction: false }).safeParse(good).success, good).toBe(true);
  });

  it("answers those URLs with 400 naming the field through the API", async () => {
    const p = await startPlatform();
    const dev = await p.register("DEVELOPER");
    const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ redirectUrl: "https://*/cb" }) });
    expect(app.status).toBe(400);
    expect(app.json.message).toContain("redirectUrl");
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const manifest = await p.request("PUT", `/developer/apps/${created.json.id}/manifest`, {
      token: dev.token,
      body: { embeds: [{ embedType: "inject", name: "I", kind: "GLOBAL_SCRIPT", position: "head", scriptUrl: "http://x;sandbox/a.js" }] },
    });
    expect(manifest.status).toBe(400);
    expect(manifest.json.message).toContain("embeds[0].scriptUrl");
  });
});
