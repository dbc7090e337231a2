/**
 * Spec 2.9 on a platform whose access tokens live 75 s: the 'Your session is about to end'
 * dialog appears before expiry, and Continue renews the tokens silently (refresh token).
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";
import { SHORT_SESSION_PORT } from "./playwright.config.ts";

test.use({ baseURL: `http://localhost:${SHORT_SESSION_PORT}` });

const storedExpiry = (page: import("@playwright/test").Page) =>
  page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith("oidc.user:"));
    return key
      ? (JSON.parse(sessionStorage.getItem(key)!) as { expires_at: number }).expires_at
      : 0;
  });

test("the session dialog appears before the token expires and Continue renews it", async ({ page }) => {
  await login(page, ACCOUNTS.user);
  const before = await storedExpiry(page);
  expect(before).toBeGreaterThan(0);
  const dialog = page.getByRole("dialog", { name: "Your session is about to end" });
  await expect(dialog).toBeVisible({ timeout: 40_000 });
  await page.waitForTimeout(1100); // a renewed token must carry a later expiry second
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
  expect(await storedExpiry(page)).toBeGreaterThan(before);
  await page.goto("/metering-information");
  await expect(page.getByRole("heading", { level: 1, name: "Metering Information" })).toBeVisible();
});
