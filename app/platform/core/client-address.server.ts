/** The caller's address as the HTTP server saw it (set by the server in X-Platform-Client-Address). */
export function clientAddress(request: Request): string {
  return request.headers.get("x-platform-client-address") ?? "unknown";
}
