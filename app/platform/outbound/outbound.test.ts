import { describe, expect, it } from "vitest";
import { checkUrl, isPublicAddress, postOutbound } from "./outbound.server";
import { startReceiver } from "../testing/receiver";

describe("the outbound address guard", () => {
  it("refuses loopback, private, link-local and reserved addresses in every spelling", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    const targets = [
      `https://127.0.0.1:${port}/`,
      `https://localhost:${port}/`,
      `https://[::1]:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://2130706433:${port}/`,
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/",
      "https://192.168.1.1/",
      "https://172.16.0.1/",
      "https://0.0.0.0/",
      "https://[fe80::1]/",
      "https://[fc00::1]/",
      "https://100.64.0.1/",
      `https://localhost.:${port}/`,
      `https://0x7f000001:${port}/`,
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
    const rebinding = (_host: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }]);
    const result = await postOutbound(
      "https://rebind.example.com/",
      "{}",
      {},
      { timeoutMs: 2000, allowPrivate: false, resolver: rebinding },
    );
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

  // every spelling of a non-public address a URL can carry: the URL parser turns numeric hosts into
  // dotted quads, and IPv6 forms that carry an IPv4 address are judged by it
  const refused: [string, string][] = [
    ["decimal IPv4", "https://2130706433/"],
    ["hex IPv4", "https://0x7f000001/"],
    ["hex octets", "https://0x7f.0.0.1/"],
    ["octal IPv4", "https://0177.0.0.1/"],
    ["short IPv4 (127.1)", "https://127.1/"],
    ["short IPv4 (127.0.1)", "https://127.0.1/"],
    ["short private (10.1)", "https://10.1/"],
    ["unspecified", "https://0.0.0.0/"],
    ["this network 0/8", "https://0.1.2.3/"],
    ["broadcast", "https://255.255.255.255/"],
    ["carrier-grade NAT", "https://100.64.0.1/"],
    ["benchmarking 198.18/15", "https://198.18.0.1/"],
    ["documentation 192.0.2/24", "https://192.0.2.1/"],
    ["metadata (AWS, GCP, Azure)", "https://169.254.169.254/latest/meta-data"],
    ["metadata (AWS IPv6)", "https://[fd00:ec2::254]/"],
    ["IPv4-mapped", "https://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped, hex", "https://[::ffff:7f00:1]/"],
    ["IPv4-mapped private", "https://[::ffff:10.0.0.1]/"],
    ["SIIT (::ffff:0:a.b.c.d)", "https://[::ffff:0:7f00:1]/"],
    ["IPv4-compatible (::a.b.c.d)", "https://[::7f00:1]/"],
    ["6to4 of loopback", "https://[2002:7f00:1::]/"],
    ["6to4 of a private address", "https://[2002:c0a8:101::1]/"],
    ["Teredo with a reserved client", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"],
    ["NAT64 well-known prefix", "https://[64:ff9b::7f00:1]/"],
    ["NAT64 local-use prefix", "https://[64:ff9b:1::7f00:1]/"],
    ["unique local (ULA)", "https://[fc00::1]/"],
    ["unique local fd00::/8", "https://[fd12:3456::1]/"],
    ["link-local IPv6", "https://[fe80::1]/"],
    ["multicast IPv6", "https://[ff02::1]/"],
    ["loopback IPv6", "https://[::1]/"],
    ["unspecified IPv6", "https://[::]/"],
    ["documentation IPv6", "https://[2001:db8::1]/"],
    ["discard-only IPv6", "https://[100::1]/"],
    // more numeric spellings, each normalised by the URL parser to a dotted quad before the check
    ["octal, one number (017700000001)", "https://017700000001/"],
    ["hex and short (0x7f.1)", "https://0x7f.1/"],
    ["octal and short (0177.1)", "https://0177.1/"],
    ["zero-padded octets", "https://127.000.000.001/"],
    ["trailing dot", "https://127.0.0.1./"],
    ["bare zero (0 = 0.0.0.0)", "https://0/"],
    ["hex zero", "https://0x0/"],
    ["decimal metadata (2852039166)", "https://2852039166/latest/meta-data"],
    // more IPv4 special ranges
    ["loopback 127/8", "https://127.0.0.1/"],
    ["private 172.16/12", "https://172.31.255.255/"],
    ["private 192.168/16", "https://192.168.0.1/"],
    ["link-local 169.254/16", "https://169.254.1.1/"],
    ["multicast IPv4", "https://224.0.0.1/"],
    ["reserved 240/4", "https://240.0.0.1/"],
    ["IETF protocol assignments 192.0.0/24", "https://192.0.0.1/"],
    ["6to4 relay anycast 192.88.99/24", "https://192.88.99.1/"],
    ["AMT 192.52.193/24", "https://192.52.193.1/"],
    ["AS112 192.175.48/24", "https://192.175.48.1/"],
    // more IPv4-in-IPv6 forms
    ["IPv4-mapped metadata", "https://[::ffff:169.254.169.254]/"],
    ["IPv4-mapped, long form", "https://[0:0:0:0:0:ffff:127.0.0.1]/"],
    ["SIIT of a private address", "https://[::ffff:0:10.0.0.1]/"],
    ["IPv4-compatible, dotted (::127.0.0.1)", "https://[::127.0.0.1]/"],
    ["6to4 of metadata", "https://[2002:a9fe:a9fe::1]/"],
    ["6to4 of carrier-grade NAT", "https://[2002:6440:1::1]/"],
    ["Teredo with a loopback client", "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"],
    ["Teredo with a private server (public client)", "https://[2001:0:a00:1::f7f7:f7f7]/"],
    ["NAT64 of a private address", "https://[64:ff9b::10.0.0.1]/"],
    ["NAT64 of metadata", "https://[64:ff9b::a9fe:a9fe]/"],
    ["NAT64 local-use of a private address", "https://[64:ff9b:1::a00:1]/"],
    // more IPv6 special ranges
    ["site-local (deprecated) IPv6", "https://[fec0::1]/"],
    ["multicast IPv6, site scope", "https://[ff05::1]/"],
    ["benchmarking IPv6", "https://[2001:2::1]/"],
    ["AMT IPv6", "https://[2001:3::1]/"],
    ["ORCHIDv2", "https://[2001:20::1]/"],
    ["AS112 IPv6", "https://[2620:4f:8000::1]/"],
    ["segment routing", "https://[5f00::1]/"],
    ["documentation IPv6 3fff::/20", "https://[3fff::1]/"],
  ];
  for (const [name, url] of refused)
    it(`refuses ${name}: ${url}`, async () => {
      expect(() => checkUrl(url, false), url).toThrow(/not public/);
      // OUTBOUND_ALLOW_PRIVATE=true (development, tests) lets it through, as before
      expect(checkUrl(url, true).href, url).toBe(new URL(url).href);
      const result = await postOutbound(url, "{}", {}, { timeoutMs: 2000, allowPrivate: false });
      expect(result).toMatchObject({ ok: false, statusCode: null });
      expect(result.error).toMatch(/^refused: /);
    });

  it("lets public unicast through, also when an IPv6 form carries a public IPv4 address", () => {
    for (const url of [
      "https://8.8.8.8/",
      "https://[2606:4700::1111]/",
      "https://[2002:808:808::1]/",
      "https://[64:ff9b::808:808]/",
      "https://[::ffff:8.8.8.8]/",
      "https://hooks.example.com/x",
    ])
      expect(checkUrl(url, false).href, url).toBe(new URL(url).href);
  });

  const accepted: [string, string][] = [
    ["public IPv4", "https://8.8.8.8/"],
    ["public IPv4, decimal", "https://134744072/"],
    ["public IPv4, hex", "https://0x08080808/"],
    ["public IPv6", "https://[2606:4700::1111]/"],
    ["6to4 of a public IPv4, zero-padded", "https://[2002:0808:0808::1]/"],
    ["NAT64 of a public IPv4", "https://[64:ff9b::808:808]/"],
    ["NAT64 local-use of a public IPv4", "https://[64:ff9b:1::808:808]/"],
    ["IPv4-mapped public", "https://[::ffff:8.8.8.8]/"],
    ["SIIT of a public IPv4", "https://[::ffff:0:808:808]/"],
    ["Teredo with a public server and client", "https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/"],
  ];
  for (const [name, url] of accepted)
    it(`accepts ${name}: ${url}`, () => {
      expect(checkUrl(url, false).href, url).toBe(new URL(url).href);
      const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
      expect(isPublicAddress(host), host).toBe(true);
    });

  it("refuses a name whose resolver answers with any non-public address, in any form", async () => {
    for (const address of [
      "10.0.0.5",
      "::ffff:127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "fd00:ec2::254",
      "::1",
      "169.254.169.254",
      "2002:7f00:1::",
      "2001:0:4136:e378:8000:63bf:80ff:fffe",
    ]) {
      const family = address.includes(":") ? 6 : 4;
      const resolver = (_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
        cb(null, [
          { address: "93.184.216.34", family: 4 },
          { address, family },
        ]);
      const result = await postOutbound(
        "https://mixed.example.com/",
        "{}",
        {},
        { timeoutMs: 2000, allowPrivate: false, resolver },
      );
      expect(result.ok, address).toBe(false);
      expect(result.error, address).toMatch(/resolves to .* which is not public/);
    }
  });

  it("knows public from private addresses", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "::1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::7f00:1",
      "169.254.1.1",
      "224.0.0.1",
      "not-an-ip",
      "0x7f000001",
      "127.1",
      "2002:7f00:1::",
      "::ffff:0:7f00:1",
      "64:ff9b:1::7f00:1",
    ])
      expect(isPublicAddress(ip), ip).toBe(false);
  });
});
