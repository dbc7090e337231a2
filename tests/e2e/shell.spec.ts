/**
 * The foundation as a user meets it: login through the real login page for each demo role, the
 * start page, the mega menu's greyed entries, language switch, 403, not found, logout.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, openMegaMenu, openUserMenu } from "./helpers.ts";

for (const [role, account] of Object.entries(ACCOUNTS)) {
  test(`${role} logs in and lands on the start page ${account.startPage}`, async ({ page }) => {
    await login(page, account);
    await expect(page).toHaveURL(new RegExp(`${account.startPage}(\\?|$)`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Unable to load data")).toHaveCount(0);
  });
}

test("operator sees modules without a role greyed out and not clickable in the mega menu", async ({ page }) => {
  await login(page, ACCOUNTS.operator);
  await openMegaMenu(page);
  const menu = page.getByRole("navigation", { name: "Applications" });
  await expect(menu.getByRole("link", { name: /Metering Information/ })).not.toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await expect(menu.getByRole("link", { name: /Grid Monitoring/ }).first()).not.toHaveAttribute(
    "aria-disabled",
    "true",
  );
  for (const name of [/^Users$/, /^Settings$/, /Power Quality/, /Visual Statistics/]) {
    await expect(menu.getByRole("link", { name }).first()).toHaveAttribute("aria-disabled", "true");
  }
  await menu.getByRole("link", { name: /Visual Statistics/ }).hover();
  await expect(page.getByRole("tooltip")).toContainText("You have no role for this module");
  await menu.getByRole("link", { name: /^Users$/ }).click({ force: true });
  await expect(page).toHaveURL(/\/metering-information/);
});

test("admin sees every module enabled in the mega menu and opens one", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await openMegaMenu(page);
  const menu = page.getByRole("navigation", { name: "Applications" });
  // Every module of this version is built: nothing is greyed for an admin holding them all.
  await expect(menu.locator('[aria-disabled="true"]')).toHaveCount(0);
  for (
    const name of [
      /Metering Information/,
      /Grid Monitoring/,
      /Visual Statistics/,
      /Power Quality/,
      /Data Export/,
      /^Users$/,
    ]
  ) {
    await expect(menu.getByRole("link", { name }).first()).not.toHaveAttribute(
      "aria-disabled",
      "true",
    );
  }
  await menu.getByRole("link", { name: /^Users$/ }).click();
  await expect(page).toHaveURL(/\/user-management/);
  await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
});

test("the default start page is a built screen: /config.json names grid monitoring", async ({ request }) => {
  const config = await (await request.get("/config.json")).json();
  expect(config.defaultStartPage).toBe("/grid-monitoring");
});

test("the footer's link opens the product's own About page, served offline", async ({ page }) => {
  await login(page, ACCOUNTS.user);
  const about = page.getByRole("contentinfo").getByRole("link", { name: "About GridWatch" });
  await expect(about).toHaveAttribute("href", /^\/help\/en\/about\.html/);
  const [tab] = await Promise.all([page.waitForEvent("popup"), about.click()]);
  await expect(tab.getByRole("heading", { level: 1 })).toContainText("About GridWatch");
  await tab.close();
});

test("operator gets the 403 page on a route without a role, with a link back to the start page", async ({ page }) => {
  await login(page, ACCOUNTS.operator);
  await page.goto("/user-management");
  await expect(page.getByText("Access denied").first()).toBeVisible();
  await page.getByRole("link", { name: "Back to the start page" }).click();
  await expect(page).toHaveURL(/\/metering-information/);
});

test("the 403 page of a voltage screen shows no voltage toggle and keeps the URL as typed", async ({ page }) => {
  await login(page, ACCOUNTS.operator);
  await page.goto("/visual-statistics/statistics");
  await expect(page.getByText("Access denied").first()).toBeVisible();
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByRole("radiogroup", { name: "Voltage level" })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: /^Run mode/ })).toHaveCount(0);
});

test("an unknown path shows the not-found page inside the shell", async ({ page }) => {
  await login(page, ACCOUNTS.user);
  await page.goto("/no-such-screen");
  await expect(page.getByText("Page Not Found").first()).toBeVisible();
});

test("a user switches the interface to French and keeps it after a reload", async ({ page }) => {
  await login(page, ACCOUNTS.superUser);
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name: "Français" }).click();
  await expect(page.getByRole("contentinfo")).toContainText("À propos de GridWatch");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Surveillance du réseau" }))
    .toBeVisible();
  await page.getByRole("button", { name: /Simon Superuser/ }).click();
  await expect(page.getByRole("menuitem", { name: "Déconnexion" })).toBeVisible();
  await page.getByRole("menuitemradio", { name: "English" }).click();
  await openUserMenu(page);
  await expect(page.getByRole("menuitem", { name: "Logout" })).toBeVisible();
});

test("super-admin sees the customer name in the footer; a plain user does not", async ({ page, browser }) => {
  await login(page, ACCOUNTS.superAdmin);
  await expect(page.getByRole("contentinfo")).toContainText("EW Demo AG");
  const other = await browser.newPage();
  await login(other, ACCOUNTS.user);
  await expect(other.getByRole("contentinfo")).not.toContainText("EW Demo AG");
  await expect(other.getByRole("contentinfo")).toContainText("GMT+01:00");
  await other.close();
});

test("logout clears the session and a new visit asks for the login again", async ({ page }) => {
  await login(page, ACCOUNTS.user);
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible({ timeout: 15_000 });
  const stored = await page.evaluate(() =>
    Object.keys(sessionStorage).filter((k) =>
      k.startsWith("oidc.") || k.startsWith("gw.customerIds")
    )
  );
  expect(stored).toEqual([]);
  await page.goto("/grid-monitoring");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a wrong password is refused on the login page with a clear message", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("E-mail").fill(ACCOUNTS.user.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The e-mail or the password is not correct.");
});

test("opened on another address than PUBLIC_URL, the page says which address to open", async ({ page, baseURL }) => {
  const other = baseURL!.replace("localhost", "127.0.0.1");
  await page.goto(`${other}/grid-monitoring?level=LV`);
  await expect(page.getByRole("heading", { name: "Open GridWatch at its own address" }))
    .toBeVisible();
  await expect(page.getByText(`This installation is set up for ${baseURL}.`)).toBeVisible();
  await page.getByRole("link", { name: `Open ${baseURL}` }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(baseURL);
});
