/**
 * Auto-analyses and the grid compliance end to end through the real login: an administrator
 * opens /power-quality/reports#auto-analyses, is told the form's rules, schedules a weekly
 * analysis of the demo station, runs it now and sees the run with the station's report in the
 * history; then opens the grid compliance view with every node's verdict of the last week.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

test("an admin schedules an auto-analysis, runs it and opens the grid compliance", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, ACCOUNTS.admin, "/power-quality/reports#auto-analyses");
  await expect(page.getByRole("heading", { name: "Power Quality", level: 1 })).toBeVisible();
  const section = page.getByTestId("pq-auto");
  await expect(section).toBeVisible();
  await page.getByTestId("pq-auto-create").click();
  const dialog = page.getByRole("dialog", { name: "Schedule an auto-analysis" });
  await expect(dialog).toBeVisible();

  // The form's rules with the server's texts.
  await dialog.getByLabel("Name").fill("ab");
  await dialog.getByTestId("pq-auto-submit").click();
  await expect(dialog.getByText("Name must have minimum 3 characters.")).toBeVisible();
  await dialog.getByLabel("Name").fill("Weekly Seeblick");
  await dialog.getByTestId("pq-auto-nodes").getByLabel(/TS Seeblick/).first().check();
  await dialog.getByLabel("Weekday").click();
  await page.getByRole("option", { name: "Tuesday" }).click();
  await shot(page, "pq-auto-schedule", { fullPage: true });
  await dialog.getByTestId("pq-auto-submit").click();
  await expect(dialog).toBeHidden();

  const list = page.getByTestId("pq-auto-list");
  const row = list.getByRole("row").filter({ hasText: "Weekly Seeblick" });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Tuesdays at 06:00 (Europe/Zurich)");
  await row.getByRole("button", { name: "Run now" }).click();
  const runs = page.getByTestId("pq-auto-runs");
  await expect(runs).toBeVisible();
  await expect(runs.getByRole("row").nth(1)).toContainText(/\d{4}-W\d{2}/, { timeout: 30_000 });
  await expect(runs.getByRole("button", { name: /TS Seeblick/ }).first()).toBeVisible({
    timeout: 30_000,
  });
  // A paused analysis can be deleted; an active one offers no delete.
  await expect(row.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row).toContainText("Paused");
  await shot(page, "pq-auto-history", { fullPage: true });

  await page.getByTestId("pq-tab-compliance").click();
  await expect(page).toHaveURL(/#compliance$/);
  const compliance = page.getByTestId("pq-compliance");
  await expect(compliance).toBeVisible();
  await compliance.getByRole("button", { name: "Evaluate again" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("pq-compliance-list")).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [2_000] });
  await expect(page.getByTestId("pq-compliance-summary")).toContainText(/\d{4}-W\d{2}: \d+ passed/);
  await expect(page.getByTestId("pq-compliance-list")).toContainText("TS Seeblick");
  await shot(page, "pq-compliance", { fullPage: true });
});
