/**
 * The screenshots of the Help Centre (web/public/help/img/*.jpg), taken through the real login
 * from the demo utility at 1280 x 800 in the light theme. Runs only on request:
 *   HELP_SCREENSHOTS=1 npx playwright test --config tests/e2e/playwright.config.ts help-screenshots
 * then `deno task help` is not needed (the pages only reference the files).
 */
import { expect, type Page, test } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { ACCOUNTS, login } from "./helpers.ts";

const OUT = fileURLToPath(new URL("../../web/public/help/img/", import.meta.url));

test.skip(!process.env.HELP_SCREENSHOTS, "HELP_SCREENSHOTS is not set");
test.use({
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  },
});

async function save(page: Page, name: string) {
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${OUT}${name}.jpg`, type: "jpeg", quality: 70 });
}

test("help screenshots of the built screens", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, ACCOUNTS.admin, "/grid-monitoring");
  const rows = page.getByTestId("grid-list").locator("button[data-node-id]");
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
  await save(page, "grid-monitoring");

  await page.goto("/metering-information");
  await expect(page.getByRole("table").getByRole("row").nth(5)).toBeVisible();
  await save(page, "metering-information");

  await page.goto("/visual-statistics/statistics");
  const panel = page.getByRole("complementary", { name: "Grid" });
  await panel.getByRole("searchbox", { name: "Search grid, node or feeder" }).fill("Seeblick");
  await panel.getByRole("checkbox", { name: "TS Seeblick › LV line 1", exact: true }).check();
  await page.getByRole("button", { name: "Voltage U (V)" }).click();
  await expect(async () => {
    if (await page.getByText("No voltage or current data is available.").isVisible()) {
      await page.reload();
    }
    await expect(page.getByTestId("time-chart").first().locator("canvas")).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 90_000, intervals: [3_000] });
  await save(page, "visual-statistics");

  await page.goto("/infrastructure-setup");
  await page.getByRole("tree", { name: "Grid structure" }).getByRole("button", { name: /^TS Hang/ })
    .click();
  await save(page, "infrastructure-setup");

  await page.goto("/io-monitoring");
  const works = page.getByRole("navigation", { name: "Electrical works with I/O modules" });
  await works.getByRole("button", { name: /^TS Seeblick/ }).first().click();
  await expect(page.getByRole("region", { name: "Module 1 Station door" })).toBeVisible();
  await save(page, "io-monitoring");

  await page.goto("/user-management");
  await expect(page.getByRole("link", { name: "Anna Admin" })).toBeVisible();
  await save(page, "user-management");

  await page.goto("/global-settings");
  await expect(page.getByLabel("Company name")).toBeVisible();
  await save(page, "global-settings");

  await page.goto("/user-settings");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await save(page, "user-settings");
});
