import * as OTPAuth from "otpauth";
import { isStorefrontPath } from "../core/areas";

/** The test reviewers' TOTP secret (testing/platform.ts enrols it; the demo reviewer's too). */
export const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** The last time step whose code this process sent, per secret: each code is accepted once (contract 18). */
const lastStep = new Map<string, number>();
const STEP_MS = 30_000;

/**
 * Codes to try for a TOTP secret, none that this process sent before (a second sign-in within the
 * same 30 s would replay one, be refused, and count towards the throttle): this step's code, else
 * the next step's (one step of drift), else, after waiting for a fresh step, that one's. Three in
 * all, for the rare code some other process used.
 */
export function* totpCodes(secret: string): Generator<Promise<string>> {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(now, (lastStep.get(secret) ?? -1) + 1);
    lastStep.set(secret, step);
    // more than one step ahead is not accepted: wait until the step before it has begun
    const wait = Math.max(0, (step - 1) * STEP_MS - Date.now() + 50);
    yield new Promise((r) => setTimeout(r, wait)).then(() => totp.generate({ timestamp: step * STEP_MS }));
  }
}
/**
 * A minimal browser for HTTP-level tests of pages: a cookie jar, sign-in through the real form,
 * and form posts carrying the CSRF token the page gave.
 */
export class BrowserSession {
  /** one cookie jar per host, as a browser keeps them: the platform's and the storefront's never mix */
  jars = new Map<string, Map<string, string>>();
  csrf = "";
  storefrontUrl: string;
  /** `baseUrl` is the platform's origin; storefront paths (/s/…) go to the storefront's (by default the other loopback name on the same port). */
  constructor(
    public baseUrl: string,
    storefrontUrl?: string,
  ) {
    const other = new URL(baseUrl);
    other.hostname =
      other.hostname === "localhost" ? "127.0.0.1" : other.hostname === "127.0.0.1" ? "localhost" : other.hostname;
    this.storefrontUrl = storefrontUrl ?? other.origin;
  }

  /** The cookies this browser holds for one host (all hosts when none is named). */
  get cookies(): Map<string, string> {
    return new Map([...this.jars.values()].flatMap((jar) => [...jar]));
  }

  /** The address a path is asked for at: storefront paths on the storefront's origin, the rest on the platform's. */
  urlOf(path: string): URL {
    if (/^https?:\/\//.test(path)) return new URL(path);
    return new URL(path, isStorefrontPath(path) ? this.storefrontUrl : this.baseUrl);
  }

  private jar(url: URL): Map<string, string> {
    let jar = this.jars.get(url.hostname);
    if (!jar) this.jars.set(url.hostname, (jar = new Map()));
    return jar;
  }

  private absorb(url: URL, res: Response) {
    const all = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie?.() ?? [];
    for (const c of all) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.jar(url).delete(pair.slice(0, eq));
      else this.jar(url).set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  /** The Cookie header this browser sends with a request to that address. */
  cookieHeader(url: URL) {
    return [...this.jar(url)].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async get(path: string): Promise<{ status: number; location: string | null; html: string }> {
    const url = this.urlOf(path);
    const res = await fetch(url, { headers: { Cookie: this.cookieHeader(url) }, redirect: "manual" });
    this.absorb(url, res);
    const html = await res.text();
    // the token of a form on the page, or the one the page's scripts hold (root loader data)
    const m = /name="csrf" value="([^"]+)"/.exec(html) ?? /"csrf":"([^"]+)"/.exec(html);
    if (m) this.csrf = m[1];
    return { status: res.status, location: res.headers.get("location"), html };
  }

  async post(
    path: string,
    fields: Record<string, string | string[]>,
  ): Promise<{ status: number; location: string | null; html: string }> {
    if (!this.csrf) await this.get(isStorefrontPath(path) ? path.split("/").slice(0, 3).join("/") : "/login");
    const url = this.urlOf(path);
    // a list is a field sent once per value, as checkboxes of one name are
    const body = new URLSearchParams(
      Object.entries({ csrf: this.csrf, ...fields }).flatMap(([k, v]) => [v].flat().map((one) => [k, one])),
    );
    // as Chromium sends a form of a page to its own origin
    const res = await fetch(url, {
      method: "POST",
      body,
      headers: { Cookie: this.cookieHeader(url), Origin: url.origin, "Sec-Fetch-Site": "same-origin" },
      redirect: "manual",
    });
    this.absorb(url, res);
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  }

  /** A multipart form post (a form with a file input), with the page's CSRF token, as Chromium sends it. */
  async postMultipart(
    path: string,
    form: FormData,
  ): Promise<{ status: number; location: string | null; html: string }> {
    if (!this.csrf) await this.get(isStorefrontPath(path) ? path.split("/").slice(0, 3).join("/") : "/login");
    const url = this.urlOf(path);
    form.set("csrf", this.csrf);
    const res = await fetch(url, {
      method: "POST",
      body: form,
      headers: { Cookie: this.cookieHeader(url), Origin: url.origin, "Sec-Fetch-Site": "same-origin" },
      redirect: "manual",
    });
    this.absorb(url, res);
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  }

  /**
   * Signs in through the real form; an account with a second factor answers the code step with a
   * TOTP code of `totpSecret` (the test reviewers' known secret by default, decision 072).
   */
  static async signIn(baseUrl: string, email: string, password: string, totpSecret = TEST_TOTP_SECRET) {
    const session = new BrowserSession(baseUrl);
    await session.get("/login");
    let res = await session.post("/login", { email, password });
    if (res.status === 302 && res.location?.startsWith("/login?step=code")) {
      await session.get(res.location);
      for (const code of totpCodes(totpSecret)) {
        res = await session.post("/login?step=code", { intent: "code", code: await code });
        if (res.status === 302) break;
      }
    }
    if (res.status !== 302) throw new Error(`sign-in failed: ${res.status}`);
    await session.get("/");
    return session;
  }

  /** A copy of this browser (its cookies and CSRF token): a cookie replayed by another party. */
  clone(): BrowserSession {
    const copy = new BrowserSession(this.baseUrl, this.storefrontUrl);
    copy.jars = new Map([...this.jars].map(([host, jar]) => [host, new Map(jar)]));
    copy.csrf = this.csrf;
    return copy;
  }
}

/** The hidden fields of the first form on a page that has a field named `decision` or `intent`. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[m[1]] = m[2]
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
  return fields;
}
