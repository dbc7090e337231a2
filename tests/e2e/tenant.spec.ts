/**
 * A super-administrator switches utility in the user menu: every screen then shows, and edits,
 * the chosen utility's grid (issue 12, point 10), and switching back shows the first one again.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login, openUserMenu } from "./helpers.ts";

async function switchTo(page: Page, name: string): Promise<void> {
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name }).click();
  await expect(page.getByRole("contentinfo")).toContainText(name);
}

test("a super-admin who switches utility sees that utility's grid on every screen", async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, ACCOUNTS.superAdmin, "/infrastructure-setup");
  const tree = page.getByRole("tree", { name: "Grid structure" });
  await expect(tree.getByText("Substation Lucerne South")).toBeVisible();

  await switchTo(page, "Stadtwerk Beispiel");
  await expect(tree.getByText("Substation Bern West")).toBeVisible();
  await expect(tree.getByText("Substation Lucerne South")).toHaveCount(0);

  await page.goto("/metering-information");
  const works = page.getByRole("table", { name: "Metering state of every electrical work" });
  await expect(works.getByRole("cell", { name: /TS Bethlehem/ })).toBeVisible();
  await expect(works.getByRole("cell", { name: /TS Seeblick/ })).toHaveCount(0);

  await page.goto("/grid-monitoring?voltage=lv");
  const list = page.getByTestId("grid-list");
  await expect(list.getByText("TS Bethlehem")).toBeVisible();
  await expect(page.getByRole("button", { name: /^All nodes/ })).toContainText("3");
  await expect(list.getByText("TS Hang")).toHaveCount(0);

  // Back to the first utility: its grid again, on the screen that is open.
  await switchTo(page, "EW Demo AG");
  await expect(list.getByText("TS Hang")).toBeVisible();
  await expect(page.getByRole("button", { name: /^All nodes/ })).toContainText("20");
  await expect(list.getByText("TS Bethlehem")).toHaveCount(0);
});
