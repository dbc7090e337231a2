/** Shared steps of the end-to-end tests: the real login page of the embedded provider. */
import { expect, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

/** Demo accounts (README.md). */
export const ACCOUNTS = {
  user: { email: "user@demo-ew.ch", password: "Demo-User-2026!", startPage: "/grid-monitoring" },
  admin: {
    email: "admin@demo-ew.ch",
    password: "Demo-Admin-2026!",
    startPage: "/infrastructure-setup",
  },
  superUser: {
    email: "superuser@demo-ew.ch",
    password: "Demo-Super-2026!",
    startPage: "/grid-monitoring",
  },
  superAdmin: {
    email: "superadmin@demo-ew.ch",
    password: "Demo-Root-2026!",
    startPage: "/global-settings",
  },
  operator: {
    email: "operator@demo-ew.ch",
    password: "Demo-Operator-2026!",
    startPage: "/metering-information",
  },
} as const;

/** An account that signs in (a demo account, or one a test created). */
export type Account = { email: string; password: string; startPage: string };

/** Opens `path`, is sent to the login page, signs in, and waits for the app shell. */
export async function login(page: Page, account: Account, path = "/"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("contentinfo")).toBeVisible();
}

/** Opens the mega menu from the logo button. */
export async function openMegaMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Open the application menu" }).click();
  const menu = page.getByRole("navigation", { name: "Applications" });
  await expect(menu).toBeVisible();
  // The drawer slides in: wait until it rests inside the viewport before clicking in it.
  await expect(menu.getByRole("heading", { name: "Toolset" })).toBeInViewport({ ratio: 1 });
}

/** Opens the user menu in the header. */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: /^User menu of / }).click();
}

/**
 * Where screenshots for looking at the screens go: only when `E2E_SCREENSHOTS` names a folder
 * (`E2E_SCREENSHOTS=/tmp/shots npx playwright test ...`); the suite itself asserts what it
 * checks and takes none.
 */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? "";

/** Takes a screenshot of a page or an element into `E2E_SCREENSHOTS`, when set. */
export async function shot(
  target: Page | Locator,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  if ("goto" in target) await target.screenshot({ path, fullPage: options.fullPage ?? false });
  else await target.screenshot({ path });
}
