import { describe, expect, it } from "vitest";
import { checkFraming, framingProblem } from "./framing.server";
import { startReceiver } from "../testing/receiver";
import { testEnv } from "../testing/platform";

describe("the framing check", () => {
  it("reads X-Frame-Options and CSP frame-ancestors", () => {
    const origin = "https://apps.example.com";
    expect(framingProblem({ "x-frame-options": "DENY" }, origin)).toMatch(/DENY/);
    expect(framingProblem({ "x-frame-options": "sameorigin" }, origin)).toMatch(/SAMEORIGIN/);
    expect(framingProblem({ "content-security-policy": "default-src 'self'; frame-ancestors 'none'" }, origin)).toMatch(
      /does not allow/,
    );
    expect(
      framingProblem({ "content-security-policy": "frame-ancestors https://apps.example.com" }, origin),
    ).toBeNull();
    expect(framingProblem({ "content-security-policy": "frame-ancestors *" }, origin)).toBeNull();
    expect(framingProblem({}, origin)).toBeNull();
  });

  it("checks each renderUrl of a manifest against live servers and only warns", async () => {
    const open = await startReceiver({ status: 200, body: "<p>ok</p>" });
    const denied = await startReceiver({ status: 200, headers: { "X-Frame-Options": "DENY" } });
    const results = await checkFraming(testEnv({ PUBLIC_URL: "http://localhost:3000" }), {
      blocks: [{ blockType: "a", name: "A", renderUrl: open.url + "/block" }],
      adminPages: [{ pageId: "p", title: "P", renderUrl: denied.url + "/admin" }],
      embeds: [
        {
          embedType: "w",
          name: "W",
          kind: "FLOATING_WIDGET",
          position: "bottom_left",
          renderUrl: "http://127.0.0.1:1/nothing",
        },
      ],
    });
    expect(results).toEqual([
      { field: "blocks[0].renderUrl", url: open.url + "/block", ok: true },
      {
        field: "embeds[0].renderUrl",
        url: "http://127.0.0.1:1/nothing",
        ok: false,
        problem: expect.stringContaining("could not load"),
      },
      {
        field: "adminPages[0].renderUrl",
        url: denied.url + "/admin",
        ok: false,
        problem: expect.stringContaining("DENY"),
      },
    ]);
    expect(open.received[0].method).toBe("GET");
  });
});
