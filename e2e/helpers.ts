import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";

export const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}@example.test`;

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
}

export const DEMO = {
  merchant: { email: "merchant@demo.test", password: "demo-merchant-1" },
  developer: { email: "developer@demo.test", password: "demo-developer-1" },
  reviewer: { email: "reviewer@demo.test", password: "demo-reviewer-1" },
};
