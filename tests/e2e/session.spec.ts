/**
 * Spec 2.9 on a platform whose access tokens live 70 s: the 'Your session is about to end'
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

test("an admin makes a wall display a kiosk: it renews its session on its own, without the dialog", async ({ browser, page }) => {
  await login(page, ACCOUNTS.admin, "/user-management");
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await dialog.getByLabel("Full name").fill("Control Room Wall");
  await dialog.getByLabel("Email").fill("wall@demo-ew.ch");
  await dialog.getByLabel("Access to Grid Monitoring").selectOption("user");
  await dialog.getByLabel("Role").selectOption("admin");
  const kiosk = dialog.getByRole("switch", { name: "Kiosk display" });
  await expect(kiosk).toBeDisabled();
  await expect(dialog.getByText("Only a plain user without admin rights")).toBeVisible();
  await dialog.getByLabel("Role").selectOption("user");
  await kiosk.click();
  await expect(kiosk).toBeChecked();
  await dialog.getByLabel("Password", { exact: true }).fill("Quiet-Harbor-77-Lime");
  await dialog.getByLabel("Confirm password").fill("Quiet-Harbor-77-Lime");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();

  const wall = await (await browser.newContext()).newPage();
  await login(wall, {
    email: "wall@demo-ew.ch",
    password: "Quiet-Harbor-77-Lime",
    startPage: "/grid-monitoring",
  }, "/grid-monitoring");
  const before = await storedExpiry(wall);
  // The 70-s token is renewed when it nears its end (the dialog would show 60 s before it).
  await expect.poll(() => storedExpiry(wall), { timeout: 60_000 }).toBeGreaterThan(before);
  await expect(wall.getByRole("dialog", { name: "Your session is about to end" })).toHaveCount(0);
  await expect(wall.getByRole("heading", { level: 1, name: "Grid Monitoring" })).toBeVisible();
});
