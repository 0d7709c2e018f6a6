import { describe, expect, it } from "vitest";
import { redirect } from "@remix-run/node";
import type { PlatformContext } from "../core/context";
import { loadEnv } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { formAction } from "./form-action.server";
import { maskCsrfToken, sessionStorage } from "./session.server";

const env = loadEnv({
  DATA_DIR: ".data/test-tmp",
  SESSION_SECRET: "f".repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
});
// formAction reads no table: the database is never touched
const context = { db: null, env } as unknown as PlatformContext;
const TOKEN = "form-action-test-token";

/** The session cookie of a signed-in browser holding TOKEN as its CSRF token. */
async function sessionCookie(): Promise<string> {
  const storage = sessionStorage(env);
  const session = await storage.getSession();
  session.set("csrf", TOKEN);
  return (await storage.commitSession(session)).split(";")[0];
}

async function post(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Request> {
  return new Request(`${env.publicUrl}/admin/products/new`, {
    method: "POST",
    headers: {
      Cookie: await sessionCookie(),
      Origin: env.publicUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}

/** What a call threw (a Response, an Error), or fails when it did not throw. */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}

describe("formAction", () => {
  it("calls the handler with the parsed form when the CSRF token matches, and passes its answer through", async () => {
    let seen: string | null = null;
    const answer = await formAction(await post({ csrf: maskCsrfToken(TOKEN), name: "Lamp" }), context, (form) => {
      seen = String(form.get("name"));
      return redirect("/admin/products?saved=created");
    });
    expect(seen).toBe("Lamp");
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/admin/products?saved=created");
  });

  it("accepts the plain token too, and a handler's own 4xx answer is left as it is", async () => {
    const answer = (await formAction(
      await post({ csrf: TOKEN }),
      context,
      () => new Response("no", { status: 422 }),
    )) as Response;
    expect(answer.status).toBe(422);
    expect(await answer.text()).toBe("no");
  });

  it("refuses a form without the token, with a wrong one, or from another site (403), before the handler runs", async () => {
    let calls = 0;
    const handler = () => {
      calls++;
      return null;
    };
    for (const request of [
      await post({ name: "Lamp" }),
      await post({ csrf: "not-the-token" }),
      await post({ csrf: TOKEN }, { Origin: "https://evil.example" }),
      new Request(`${env.publicUrl}/admin/products/new`, {
        method: "POST",
        headers: { Origin: env.publicUrl },
        body: new URLSearchParams({ csrf: TOKEN }),
      }),
    ]) {
      const e = await thrown(formAction(request, context, handler));
      expect(e).toBeInstanceOf(Response);
      expect((e as Response).status).toBe(403);
    }
    expect(calls).toBe(0);
  });

  it("answers 400 to a body that is no readable form", async () => {
    const request = await post({ csrf: TOKEN, name: "a\u0000b" });
    const e = await thrown(formAction(request, context, () => null));
    expect((e as Response).status).toBe(400);
    expect(await (e as Response).text()).toMatch(/NUL/);
  });

  it("turns an ApiError into the form's message with its status and headers", async () => {
    const answer = await formAction(await post({ csrf: TOKEN }), context, () => {
      throw new ApiError(429, "Too many failed sign-in attempts; try again later", { "Retry-After": "60" });
    });
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("60");
    expect(await response.json()).toEqual({ error: "Too many failed sign-in attempts; try again later" });
  });

  it("gives the page's own error shape, built from the error and the submitted form", async () => {
    const refused = {
      error: (e: ApiError, form: FormData) => ({
        errors: { fields: { slug: e.message }, form: [] },
        values: { slug: String(form.get("slug")) },
      }),
    };
    const answer = (await formAction(await post({ csrf: TOKEN, slug: "taken" }), context, refused, async () => {
      throw new ApiError(409, "The slug taken is already used");
    })) as Response;
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({
      errors: { fields: { slug: "The slug taken is already used" }, form: [] },
      values: { slug: "taken" },
    });
  });

  it("waits for an async error answer (a page that shows a fresh total with the refusal)", async () => {
    let quoted = 0;
    const refused = {
      error: async (e: ApiError, form: FormData) => {
        await new Promise((r) => setTimeout(r, 5));
        quoted++;
        return { error: e.message, values: { name: String(form.get("name")) }, quote: "€12.00" };
      },
    };
    const answer = (await formAction(await post({ csrf: TOKEN, name: "Ada" }), context, refused, () => {
      throw new ApiError(409, "Lamp is no longer available");
    })) as Response;
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({
      error: "Lamp is no longer available",
      values: { name: "Ada" },
      quote: "€12.00",
    });
    expect(quoted).toBe(1);
  });

  it("maps a subclass of ApiError (a domain's own refusal) like any other", async () => {
    class LinkRefused extends ApiError {}
    const answer = (await formAction(await post({ csrf: TOKEN }), context, () => {
      throw new LinkRefused(400, "This link names an app that does not exist.");
    })) as Response;
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: "This link names an app that does not exist." });
  });

  it("makes an ApiError 404 the 404 page when the page names it, a form message otherwise", async () => {
    const gone = () => {
      throw new ApiError(404, "Product not found");
    };
    const e = await thrown(formAction(await post({ csrf: TOKEN }), context, { notFound: "Product not found" }, gone));
    expect(e).toBeInstanceOf(Response);
    expect((e as Response).status).toBe(404);
    expect(await (e as Response).text()).toBe("Product not found");
    const answer = (await formAction(await post({ csrf: TOKEN }), context, gone)) as Response;
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: "Product not found" });
  });

  it("lets every other error and thrown Response through unchanged", async () => {
    const boom = new Error("database went away");
    expect(await thrown(formAction(await post({ csrf: TOKEN }), context, () => Promise.reject(boom)))).toBe(boom);
    const page = new Response("Forbidden", { status: 403 });
    expect(
      await thrown(
        formAction(await post({ csrf: TOKEN }), context, { error: () => ({ error: "never" }) }, () =>
          Promise.reject(page),
        ),
      ),
    ).toBe(page);
  });
});
