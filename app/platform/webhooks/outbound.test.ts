import { describe, expect, it } from "vitest";
import { checkUrl, isPublicAddress, postOutbound } from "./outbound.server";
import { startReceiver } from "../testing/receiver";

describe("the outbound address guard", () => {
  it("refuses loopback, private, link-local and reserved addresses in every spelling", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    const targets = [
      `https://127.0.0.1:${port}/`, `https://localhost:${port}/`, `https://[::1]:${port}/`, `https://[::ffff:127.0.0.1]:${port}/`,
      `https://2130706433:${port}/`, "https://169.254.169.254/latest/meta-data", "https://10.0.0.1/", "https://192.168.1.1/", "https://172.16.0.1/",
      "https://0.0.0.0/", "https://[fe80::1]/", "https://[fc00::1]/", "https://100.64.0.1/", `https://localhost.:${port}/`, `https://0x7f000001:${port}/`,
    ];
    for (const url of targets) {
      const result = await postOutbound(url, "{}", {}, { timeoutMs: 2000, allowPrivate: false });
      expect(result.ok, url).toBe(false);
      expect(result.error, url).toMatch(/^refused: /);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a name that resolves to loopback at connect time", async () => {
    // a DNS server that answers a public-looking name with 127.0.0.1 (as in DNS rebinding)
    const rebinding = (_host: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) => cb(null, [{ address: "127.0.0.1", family: 4 }]);
    const result = await postOutbound("https://rebind.example.com/", "{}", {}, { timeoutMs: 2000, allowPrivate: false, resolver: rebinding });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/refused: .*(resolves to|not public)/);
  });

  it("refuses plain http and odd schemes with the guard on, allows loopback with it off", async () => {
    expect(() => checkUrl("http://example.com/", false)).toThrow(/https/);
    expect(() => checkUrl("ftp://example.com/", true)).toThrow(/scheme/);
    expect(() => checkUrl("javascript:alert(1)", true)).toThrow();
    const receiver = await startReceiver({ status: 204 });
    const result = await postOutbound(receiver.url + "/x", "{}", {}, { timeoutMs: 2000, allowPrivate: true });
    expect(result).toMatchObject({ ok: true, statusCode: 204 });
  });

  it("knows public from private addresses", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"]) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ["127.0.0.1", "10.1.2.3", "::1", "::ffff:10.0.0.1", "::ffff:7f00:1", "64:ff9b::7f00:1", "169.254.1.1", "224.0.0.1", "not-an-ip"]) expect(isPublicAddress(ip), ip).toBe(false);
  });
});
