import { describe, expect, it } from "vitest";
import { z } from "zod";
import { messageFormErrors, zodFormErrors } from "~/platform/core/form-errors.server";
import { parseProductForm } from "~/routes/__product-form.server";
import { createAppSchema } from "~/platform/apps/apps.server";
import { APP_LABELS } from "./app-form";
import { describeZodError } from "~/platform/core/http.server";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("form errors", () => {
  it("shows every error of the product form at once, each starting with the field's label", () => {
    const parsed = parseProductForm(
      form({
        name: " ",
        price: "abc",
        imageUrl: "javascript:alert(1)",
        slug: "Not A Slug",
        trackStock: "on",
        stock: "",
      }),
      "USD",
      "en-US",
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.fields).toEqual({
      name: "Name is required",
      slug: "Slug must be lowercase letters, digits and hyphens",
      price: "Price must be a number like 12.50",
      imageUrl: "Image URL must be a relative path or an http(s) URL",
      stock: "Stock is needed when Track stock is ticked (or untick Track stock)",
    });
    expect(parsed.errors.form).toEqual([]);
    // the typed values come back to be shown again
    expect(parsed.values).toMatchObject({ price: "abc", imageUrl: "javascript:alert(1)", slug: "Not A Slug" });
  });

  it("accepts a valid product form", () => {
    const parsed = parseProductForm(
      form({ name: "Pie", price: "7.25", status: "ACTIVE", isAvailable: "on" }),
      "USD",
      "en-US",
    );
    expect(parsed).toMatchObject({ ok: true, input: { name: "Pie", price: 725 } });
  });

  it("reads the price in the shop's locale and says what is wrong in the shop's units", () => {
    const product = (price: string) =>
      parseProductForm(form({ name: "Pie", price, status: "ACTIVE", isAvailable: "on" }), "EUR", "da-DK");
    expect(product("6,50")).toMatchObject({ ok: true, input: { price: 650 } });
    expect(product("1.234,50 €")).toMatchObject({ ok: true, input: { price: 123450 } });
    const refused = (price: string) => {
      const parsed = product(price);
      return parsed.ok ? null : parsed.errors.fields.price;
    };
    expect(refused("-5")).toBe("Price cannot be negative");
    expect(refused("1000000000")).toBe("Price must be at most 1.000.000,00\u00a0€");
    expect(refused("6,505")).toBe("Price must have at most 2 decimals in EUR, like 12,50");
    expect(refused("six")).toBe("Price must be a number like 12,50");
  });

  it("writes zod's default messages in words (never `imageUrl:` or `redirectUrl:`)", () => {
    const schema = z.object({
      title: z.string().max(5),
      count: z.number().min(2),
      kind: z.enum(["a", "b"]),
      tags: z.array(z.string()).min(1),
      missing: z.string(),
    });
    const errors = zodFormErrors(schema.safeParse({ title: "too long", count: 1, kind: "c", tags: [] }).error!, {
      title: "Title",
      count: "Count",
      kind: "Kind",
      tags: "Tags",
      missing: "Missing",
    });
    expect(errors.fields).toEqual({
      title: "Title must be at most 5 characters",
      count: "Count must be at least 2",
      kind: "Kind must be one of a, b",
      tags: "Tags needs at least one choice",
      missing: "Missing is required",
    });
  });

  it("maps the app form's schema errors and an ApiError's `field: words` text to labelled fields, lists included", () => {
    const env = { isProduction: false };
    const input = {
      name: "",
      slug: "x",
      description: "d",
      category: "other",
      scopes: [],
      redirectUrl: "ftp://x",
      webhookUrl: null,
      webhookEvents: [],
      iconUrl: "javascript:alert(1)",
      screenshots: ["https://ok.example/a.png", "nope"],
      version: "1",
    };
    const result = createAppSchema(env).safeParse(input);
    const fromZod = zodFormErrors(result.error!, APP_LABELS);
    expect(fromZod.fields).toMatchObject({
      name: "Name is required",
      slug: "Slug must be 3-50 characters",
      scopes: "Scopes must name at least one scope",
      redirectUrl: "OAuth redirect URL must be an absolute http(s) URL",
      iconUrl: "Icon URL must be an absolute http(s) URL",
      screenshots: "Screenshots (line 2) must be an absolute http(s) URL",
      version: "Version must look like 1.0.0",
    });
    for (const message of Object.values(fromZod.fields)) expect(message).not.toMatch(/^\w+:/);

    // the same errors as the JSON API words them, read back into the form
    const fromApi = messageFormErrors(describeZodError(result.error!), APP_LABELS);
    expect(fromApi.fields.redirectUrl).toBe("OAuth redirect URL must be an absolute http(s) URL");
    expect(fromApi.fields.name).toBe("Name is required");
    // a message about no field stays a message of the form; an owned one goes to its field
    expect(messageFormErrors("The app is in review", APP_LABELS)).toEqual({
      fields: {},
      form: ["The app is in review"],
    });
    expect(
      messageFormErrors('The slug "shop" is taken', APP_LABELS, [{ test: /^The slug /, field: "slug" }]).fields,
    ).toEqual({ slug: 'The slug "shop" is taken' });
  });
});
