/**
 * Data export end to end through the real login: a user picks a station's feeders by search,
 * sees the estimated size, starts an export, watches it in the list until it is finished, gets
 * the DATA_EXPORT notification live in the bell, and downloads the GDE_ file (a zip with the
 * data and its README), which then reads as downloaded.
 */
import { expect, type Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { ACCOUNTS, login, shot } from "./helpers.ts";

/** Turns on the user's DATA_EXPORT notifications in the bell (as the settings section saves them). */
async function enableExportNotifications(page: Page): Promise<void> {
  const status = await page.evaluate(async () => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith("oidc.user:"));
    const user = JSON.parse(sessionStorage.getItem(key ?? "") ?? "{}") as {
      access_token?: string;
      profile?: { sub?: string };
    };
    const id = (user.profile?.sub ?? "").split("|").pop();
    const response = await fetch(`/usm/users/current/${id}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${user.access_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        notification: { apps: { "hes:data-export": { web: true, email: false } }, email: false },
      }),
    });
    return response.status;
  });
  expect(status).toBe(200);
}

test("an analyst exports a station's feeders, is notified and downloads the file", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, ACCOUNTS.user, "/data-export");
  await enableExportNotifications(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Data Export", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New export" });
  const bell = page.getByRole("button", { name: /^Notifications/ });

  // The rules are mirrored: no name, no feeder -> the form says so before any call.
  await form.getByRole("button", { name: "Start export" }).click();
  await expect(form.getByText("Is required")).toBeVisible();
  await form.getByLabel("File name").fill("e2e/loads");
  await expect(form.getByText('The characters : < > " / \\ | ? * ! are not allowed.'))
    .toBeVisible();
  await form.getByLabel("File name").fill("e2e loads");

  await form.getByLabel("Search station group, LV group, node or feeder").fill("Seeblick");
  const feeders = form.getByRole("group", { name: "Feeders" });
  await feeders.getByRole("checkbox", { name: /^TS Seeblick/ }).first().check();
  await expect(form.getByText(/feeders? selected/)).not.toHaveText("0 feeders selected");
  await expect(page.getByTestId("export-estimate")).toContainText("Estimated size:");
  await shot(page, "data-export-form");

  await form.getByRole("button", { name: "Start export" }).click();
  await expect(form.getByText("The export has started.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "GDE_e2e_loads_" });
  await expect(row).toBeVisible();
  // Queued, in progress (with its bar), then finished: the list follows it every 2 s.
  await expect(row.getByTestId("export-status")).toHaveText(
    /Queued|In progress|Finished/,
  );
  await expect(row.getByTestId("export-status")).toHaveText("Finished", { timeout: 90_000 });
  await expect(row).toContainText(/kB|MB|B/);

  await expect(bell).toHaveAccessibleName(/Notifications, \d+ unread/);
  await bell.click();
  await expect(page.getByRole("dialog").getByText(/ready for download/)).toBeVisible();
  await page.keyboard.press("Escape");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^GDE_e2e_loads_\d{8}-\d{8}\.zip$/);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 2).toString()).toBe("PK");
  await expect(row.getByTestId("export-status")).toHaveText("Downloaded", { timeout: 35_000 });
  await shot(page, "data-export-list");
});

test("an analyst schedules a daily wide CSV of PQ values, pauses it and deletes it", async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, ACCOUNTS.user, "/data-export");
  const form = page.getByRole("form", { name: "New export" });
  const schedules = page.getByRole("region", { name: "Scheduled exports" });
  await expect(schedules.getByText(/No scheduled exports/)).toBeVisible();

  await form.getByRole("radiogroup", { name: "Repeat" }).getByRole("radio", { name: "Daily" })
    .click();
  // A schedule has no period of its own: the inputs give way to what each run exports.
  await expect(form.getByLabel("From")).toHaveCount(0);
  await expect(form.getByText(/a file of the previous day/)).toBeVisible();
  await form.getByLabel("File name").fill("daily pq");
  await form.getByLabel("Search station group, LV group, node or feeder").fill("Seeblick");
  await form.getByRole("group", { name: "Feeders" }).getByRole("checkbox", { name: /^TS Seeblick/ })
    .first().check();
  // PQ values are 10-minute records: refused at 20 s, as the server would.
  const interval = form.getByRole("radiogroup", { name: "Interval" });
  await interval.getByRole("radio", { name: "20 s" }).click();
  await form.getByRole("group", { name: "Power-quality parameters" })
    .getByRole("checkbox", { name: /^Pst/ }).check();
  await form.getByRole("button", { name: "Schedule export" }).click();
  await expect(form.getByText(/Power-quality values .* are 10-minute records/)).toBeVisible();
  await interval.getByRole("radio", { name: "10 min" }).click();
  await form.getByRole("radiogroup", { name: "Layout" }).getByRole("radio", { name: "Wide" })
    .click();
  await expect(page.getByTestId("export-estimate")).toContainText("Estimated size of one run:");
  await shot(page, "data-export-schedule-form");
  await form.getByRole("button", { name: "Schedule export" }).click();
  await expect(form.getByText("The export is scheduled.", { exact: false })).toBeVisible();

  const row = schedules.getByRole("row").filter({ hasText: "daily pq" });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("schedule-frequency")).toHaveText("Daily");
  await expect(row).toContainText(/Wide/);
  await shot(page, "data-export-schedules");
  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByTestId("schedule-frequency")).toHaveText("Paused");
  await row.getByRole("button", { name: "Resume" }).click();
  await expect(row.getByTestId("schedule-frequency")).toHaveText("Daily");
  await row.getByRole("button", { name: "Delete schedule" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, delete it" }).click();
  await expect(schedules.getByText(/No scheduled exports/)).toBeVisible();
});

test("an analyst edits a paused schedule in the form and runs it now", async ({ page }) => {
  test.setTimeout(150_000);
  await login(page, ACCOUNTS.user, "/data-export");
  const form = page.getByTestId("export-form");
  const schedules = page.getByRole("region", { name: "Scheduled exports" });
  await form.getByRole("radiogroup", { name: "Repeat" }).getByRole("radio", { name: "Daily" })
    .click();
  await form.getByLabel("File name").fill("station loads");
  await form.getByLabel("Search station group, LV group, node or feeder").fill("Seeblick");
  await form.getByRole("group", { name: "Feeders" }).getByRole("checkbox", { name: /^TS Seeblick/ })
    .first().check();
  await form.getByRole("button", { name: "Schedule export" }).click();
  const row = schedules.getByRole("row").filter({ hasText: "station loads" });
  await expect(row.getByTestId("schedule-frequency")).toHaveText("Daily");
  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByTestId("schedule-frequency")).toHaveText("Paused");

  // Edit: the schedule's selection in the form, which repeats only (no "Once").
  await row.getByRole("button", { name: "Edit the scheduled export station loads" }).click();
  await expect(form.getByRole("heading", { name: "Edit the scheduled export" })).toBeVisible();
  await expect(form.getByLabel("File name")).toHaveValue("station loads");
  const repeat = form.getByRole("radiogroup", { name: "Repeat" });
  await expect(repeat.getByRole("radio", { name: "Once" })).toHaveCount(0);
  await expect(repeat.getByRole("radio", { name: "Daily" })).toBeChecked();
  // The rules apply as when creating: an empty name is refused in the form.
  await form.getByLabel("File name").fill("");
  await form.getByRole("button", { name: "Save schedule" }).click();
  await expect(form.getByText(/required/i).first()).toBeVisible();
  await form.getByLabel("File name").fill("weekly station loads");
  await repeat.getByRole("radio", { name: "Weekly" }).click();
  await form.getByRole("radiogroup", { name: "Format" }).getByRole("radio", { name: "Parquet" })
    .click();
  await shot(page, "data-export-schedule-edit");
  await form.getByRole("button", { name: "Save schedule" }).click();
  await expect(form.getByText("The schedule is saved.")).toBeVisible();
  await expect(form.getByRole("heading", { name: "New export" })).toBeVisible();
  const edited = schedules.getByRole("row").filter({ hasText: "weekly station loads" });
  await expect(edited).toContainText("Parquet");
  // Still paused: saving the selection does not resume it.
  await expect(edited.getByTestId("schedule-frequency")).toHaveText("Paused");
  await edited.getByRole("button", { name: "Resume" }).click();
  await expect(edited.getByTestId("schedule-frequency")).toHaveText("Weekly");

  // Run now: the last whole week as a new export in the list, which finishes.
  await edited.getByRole("button", { name: /^Run weekly station loads now/ }).click();
  await expect(schedules.getByText(/export of its last whole period has started/)).toBeVisible();
  const list = page.getByRole("region", { name: "My exports" });
  const run = list.getByRole("row").filter({ hasText: /GDE_weekly_station_loads_\d{8}-\d{8}/ });
  await expect(run.getByTestId("export-status")).toHaveText("Finished", { timeout: 90_000 });
  await shot(page, "data-export-schedule-run-now");
  await edited.getByRole("button", { name: "Delete schedule" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Yes, delete it" }).click();
  await expect(schedules.getByText(/No scheduled exports/)).toBeVisible();
});
