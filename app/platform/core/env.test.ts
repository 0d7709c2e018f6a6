import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env.server";

const base = { DATA_DIR: ".data/test-tmp" };
/** What production needs besides the origins. */
const production = {
  ...base,
  NODE_ENV: "production",
  SESSION_SECRET: "s".repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  DATABASE_URL: "postgres://u:p@db.internal:5432/platform",
  PUBLIC_URL: "https://apps.example.com",
  MAIL_URL: "smtp://mailer:secret@smtp.example.com:587",
};

describe("loadEnv", () => {
  it("applies the contract's defaults outside production", () => {
    const env = loadEnv({ ...base });
    expect(env).toMatchObject({
      port: 3000,
      publicUrl: "http://localhost:3000",
      storefrontUrl: "http://127.0.0.1:3000",
      appApiRateLimit: 60,
      outboundAllowPrivate: true,
      isProduction: false,
    });
    expect(env.encryptionKey).toHaveLength(32);
    expect(env.sessionSecret.length).toBeGreaterThanOrEqual(32);
    // generated secrets are kept: a second read gives the same ones
    expect(loadEnv({ ...base }).sessionSecret).toBe(env.sessionSecret);
  });

  it("serves the demo apps on an origin of their own: PORT + 100 on the other loopback name (decision 062)", () => {
    expect(loadEnv({ ...base }).demoApps).toEqual({ port: 3100, url: "http://127.0.0.1:3100" });
    expect(loadEnv({ ...base, PORT: "4000", PUBLIC_URL: "http://127.0.0.1:4000" }).demoApps).toEqual({
      port: 4100,
      url: "http://localhost:4100",
    });
    expect(loadEnv({ ...base, DEMO_APPS_PORT: "5005" }).demoApps).toEqual({ port: 5005, url: "http://127.0.0.1:5005" });
    expect(loadEnv({ ...base, DEMO_APPS_PORT: "off" }).demoApps).toBeNull();
    // a deployed platform: only with an address of their own that visitors can reach
    expect(loadEnv({ ...production, STOREFRONT_URL: "https://shops.example-stores.com" }).demoApps).toBeNull();
    expect(
      loadEnv({
        ...production,
        STOREFRONT_URL: "https://shops.example-stores.com",
        DEMO_APPS_URL: "https://demo-apps.example.net",
        DEMO_APPS_PORT: "8080",
      }).demoApps,
    ).toEqual({ port: 8080, url: "https://demo-apps.example.net" });
  });

  it("refuses demo apps settings that would share an origin or the platform's cookies", () => {
    const refused = (extra: Record<string, string>) => () => loadEnv({ ...base, ...extra });
    expect(refused({ DEMO_APPS_PORT: "3000" })).toThrow(/DEMO_APPS_URL: must be an origin of its own/);
    expect(refused({ DEMO_APPS_URL: "http://localhost:3100" })).toThrow(/different host from PUBLIC_URL/);
    expect(refused({ DEMO_APPS_URL: "http://127.0.0.1:3100/apps" })).toThrow(/origin only/);
    expect(refused({ DEMO_APPS_PORT: "seventy" })).toThrow(/DEMO_APPS_PORT: must be a port/);
    expect(refused({ PORT: "65500" })).toThrow(/DEMO_APPS_PORT: PORT \+ 100 is above 65535/);
  });

  it("requires secrets and a database in production, and keeps the guard on", () => {
    expect(() => loadEnv({ ...base, NODE_ENV: "production" })).toThrow(
      /SESSION_SECRET: required in production[\s\S]*ENCRYPTION_KEY[\s\S]*DATABASE_URL/,
    );
    const env = loadEnv({ ...production, STOREFRONT_URL: "https://shops.example-stores.com" });
    expect(env.outboundAllowPrivate).toBe(false);
    expect(env.storefrontUrl).toBe("https://shops.example-stores.com");
  });

  it("puts the storefront on a host of its own", () => {
    expect(() => loadEnv(production)).toThrow(/STOREFRONT_URL: required in production/);
    // same host, another port: one cookie jar, refused
    expect(() => loadEnv({ ...production, STOREFRONT_URL: "https://apps.example.com:8443" })).toThrow(
      /STOREFRONT_URL: must have a different host/,
    );
    expect(() =>
      loadEnv({ ...base, PUBLIC_URL: "http://127.0.0.1:4000", STOREFRONT_URL: "http://127.0.0.1:4001" }),
    ).toThrow(/STOREFRONT_URL/);
    expect(() => loadEnv({ ...base, STOREFRONT_URL: "http://shop.test/s" })).toThrow(
      /STOREFRONT_URL: must be an origin only/,
    );
    // outside production the other loopback name is the default, whichever PUBLIC_URL names
    expect(loadEnv({ ...base, PUBLIC_URL: "http://127.0.0.1:4000" }).storefrontUrl).toBe("http://localhost:4000");
    expect(() => loadEnv({ ...base, PUBLIC_URL: "http://platform.test" })).toThrow(
      /STOREFRONT_URL: required when PUBLIC_URL/,
    );
  });

  it("names every invalid setting", () => {
    try {
      loadEnv({
        ...base,
        PORT: "abc",
        APP_API_RATE_LIMIT: "0",
        ENCRYPTION_KEY: "short",
        OUTBOUND_ALLOW_PRIVATE: "yes",
        DATABASE_URL: "mysql://x",
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      const message = (e as Error).message;
      for (const name of ["PORT", "APP_API_RATE_LIMIT", "ENCRYPTION_KEY", "OUTBOUND_ALLOW_PRIVATE", "DATABASE_URL"])
        expect(message).toContain(name);
    }
  });

  it("reads the mail settings (contract 16): MAIL_URL required in production, MAIL_FROM defaulted from PUBLIC_URL", () => {
    const { MAIL_URL: _unset, ...withoutMail } = production;
    expect(() => loadEnv({ ...withoutMail, STOREFRONT_URL: "https://shops.example-stores.com" })).toThrow(
      /MAIL_URL: required in production/,
    );
    const env = loadEnv({ ...production, STOREFRONT_URL: "https://shops.example-stores.com" });
    expect(env.mailUrl).toBe("smtp://mailer:secret@smtp.example.com:587");
    expect(env.mailFrom).toBe("Storefront Apps <no-reply@apps.example.com>");
    const dev = loadEnv({ ...base, MAIL_FROM: "Shop Mail <mail@shop.example>" });
    expect(dev.mailUrl).toBeUndefined();
    expect(dev.mailFrom).toBe("Shop Mail <mail@shop.example>");
    expect(loadEnv({ ...base, MAIL_URL: "smtps://u:p@smtp.example.com:465" }).mailUrl).toMatch(/^smtps:/);
    for (const bad of [{ MAIL_URL: "http://smtp.example.com" }, { MAIL_FROM: "x@y.example\r\nBcc: z@evil.example" }, { MAIL_FROM: "nobody" }])
      expect(() => loadEnv({ ...base, ...bad })).toThrow(new RegExp(Object.keys(bad)[0]));
  });
});
