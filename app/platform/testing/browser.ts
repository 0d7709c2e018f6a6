/**
 * A minimal browser for HTTP-level tests of pages: a cookie jar, sign-in through the real form,
 * and form posts carrying the CSRF token the page gave.
 */
export class BrowserSession {
  cookies = new Map<string, string>();
  csrf = "";
  constructor(public baseUrl: string) {}

  private absorb(res: Response) {
    const all = (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie?.() ?? [];
    for (const c of all) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async get(path: string): Promise<{ status: number; location: string | null; html: string }> {
    const res = await fetch(new URL(path, this.baseUrl), { headers: { Cookie: this.cookieHeader() }, redirect: "manual" });
    this.absorb(res);
    const html = await res.text();
    const m = /name="csrf" value="([^"]+)"/.exec(html);
    if (m) this.csrf = m[1];
    return { status: res.status, location: res.headers.get("location"), html };
  }

  async post(path: string, fields: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
    if (!this.csrf) await this.get("/login");
    const body = new URLSearchParams({ csrf: this.csrf, ...fields });
    const res = await fetch(new URL(path, this.baseUrl), { method: "POST", body, headers: { Cookie: this.cookieHeader() }, redirect: "manual" });
    this.absorb(res);
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  }

  static async signIn(baseUrl: string, email: string, password: string) {
    const session = new BrowserSession(baseUrl);
    await session.get("/login");
    const res = await session.post("/login", { email, password });
    if (res.status !== 302) throw new Error(`sign-in failed: ${res.status}`);
    await session.get("/");
    return session;
  }
}

/** The hidden fields of the first form on a page that has a field named `decision` or `intent`. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[m[1]] = m[2].replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  return fields;
}
