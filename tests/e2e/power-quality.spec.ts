/**
 * Power-quality reports end to end through the real login: a user holding app:power-quality
 * opens /power-quality/reports, is told the form's rules as they type (the server's messages),
 * creates an EN 50160 report of the last half hour of the demo station (the simulator's live
 * data), watches it go from Scheduled to Completed with its result and summary, and opens the
 * PDF. With E2E_SCREENSHOTS set, the screens go there.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

/** `YYYY-MM-DDTHH:mm` of an instant on the clock of `timeZone` (the demo's Europe/Zurich). */
function wallClock(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

test("a user creates an EN 50160 report, watches it complete and opens its PDF", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, ACCOUNTS.user, "/power-quality/reports");
  await expect(page.getByRole("heading", { name: "Power Quality", level: 1 })).toBeVisible();
  await page.getByTestId("pq-create").click();
  const dialog = page.getByRole("dialog", { name: "New power-quality report" });
  await expect(dialog).toBeVisible();

  // The form's rules are the server's, with its texts.
  await dialog.getByLabel("Report name").fill("ab");
  await dialog.getByRole("button", { name: "Create report" }).click();
  await expect(dialog.getByText("Name must have minimum 3 characters.")).toBeVisible();
  await dialog.getByLabel("Report name").fill("Live: half hour");
  await expect(dialog.getByText(/The characters : < > .* are not allowed/)).toBeVisible();
  await dialog.getByLabel("Report name").fill("Live half hour");
  await dialog.getByLabel("Node").click();
  await page.getByRole("option", { name: "TS Seeblick", exact: true }).click();

  // The last full half hour of the live data (the simulator filled the last hour at start).
  const slot = 600_000;
  const start = Math.floor((Date.now() - 50 * 60_000) / slot) * slot;
  await dialog.getByLabel("Start").fill(wallClock(start, "Europe/Zurich"));
  await dialog.getByLabel("Length", { exact: true }).fill("5");
  await dialog.getByLabel("Unit").click();
  await page.getByRole("option", { name: "minutes" }).click();
  await expect(dialog.getByText("The period must be at least 10 minutes.")).toBeVisible();
  await dialog.getByLabel("Length", { exact: true }).fill("30");
  await shot(page, "pq-create");
  await dialog.getByRole("button", { name: "Create report" }).click();
  await expect(dialog).toBeHidden();

  // The list and the detail follow the job: Scheduled or In progress, then Completed.
  const list = page.getByTestId("pq-reports");
  await expect(list.getByRole("row", { name: /Live half hour/ })).toBeVisible();
  const detail = page.getByTestId("pq-detail");
  await expect(detail.getByRole("heading", { name: "Live half hour" })).toBeVisible();
  await expect(detail.getByTestId("pq-status")).toHaveText("Completed", { timeout: 90_000 });
  await expect(detail.getByTestId("pq-result").first()).toHaveText(/^(Passed|Not passed)$/);
  const summary = detail.getByTestId("pq-summary");
  await expect(summary.getByRole("row", { name: /Voltage deviation L1/ })).toBeVisible();
  await expect(list.getByRole("row", { name: /Live half hour/ }).getByTestId("pq-status"))
    .toHaveText("Completed");
  await shot(page, "pq-detail", { fullPage: true });

  // The PDF opens: a real PDF whose text names the report and its verdict.
  const download = page.waitForEvent("download");
  await detail.getByRole("button", { name: "PDF" }).click();
  const file = await (await download).path();
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const text = execFileSync("pdftotext", [file, "-"]).toString();
  expect(text).toContain("Power quality report");
  expect(text).toContain("Live half hour");
  expect(text).toMatch(/Result: (Passed|Not passed)/);
});
