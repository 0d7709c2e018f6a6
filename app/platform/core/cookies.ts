/** Cookie headers, read the same way by the platform's session and the storefront's cache rules. No server code. */

/** The names of the cookies a Cookie header holds. */
export function cookieNames(cookieHeader: string | null | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (name) names.add(name);
  }
  return names;
}
