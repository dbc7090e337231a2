/**
 * Visual statistics through the real login, against the demo simulator's measurements: a time
 * series of one feeder, a comparison of two, the shared URL reopened, and the form's refusals.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";

const FEEDER_1 = "TS Seeblick › LV line 1";
const FEEDER_2 = "CAB Seeblick 1 › Incoming line";

/** Ticks a feeder in the grid panel, found through the search box. */
async function selectFeeder(page: Page, label: string) {
  const panel = page.getByRole("complementary", { name: "Grid" });
  await panel.getByRole("searchbox", { name: "Search grid, node or feeder" }).fill("Seeblick");
  await panel.getByRole("checkbox", { name: label, exact: true }).check();
}

/**
 * The simulator's history fills in during the first minute of the server: reload until the
 * chart has values instead of the 410 text (no value at all in the period).
 */
async function waitForValues(page: Page) {
  await expect(async () => {
    const noData = page.getByText("No voltage or current data is available.");
    if (await noData.isVisible()) {
      await page.reload();
    }
    await expect(page.getByTestId("time-chart").first().locator("canvas")).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
}

/**
 * Types a custom period's bound in the customer's date and time format, read from the field's
 * placeholder (another test may have changed the demo's date format).
 */
async function fillInstant(page: Page, name: "From" | "To", wallClock: string) {
  const [date, time] = wallClock.split(" ") as [string, string];
  const [year, month, day] = date.split("-") as [string, string, string];
  const field = page.getByRole("textbox", { name, exact: true });
  const pattern = (await field.getAttribute("placeholder")) ?? "DD.MM.YYYY HH:mm";
  const text = pattern.replace(
    /YYYY|MM|DD|HH:mm/g,
    (token) => ({ YYYY: year, MM: month, DD: day, "HH:mm": time })[token] ?? token,
  );
  await field.fill(text);
}

test.describe("visual statistics", () => {
  test("statistics: a node's feeder and U give a per-phase time series", async ({ page }) => {
    await login(page, ACCOUNTS.user, "/visual-statistics");
    await expect(page).toHaveURL(/\/visual-statistics\/statistics\?voltage=lv$/);
    await expect(page.getByText("Select a feeder", { exact: true })).toBeVisible();
    // Two demo stations measure an MV line: the header offers Medium Voltage.
    await expect(page.getByRole("radio", { name: "Medium Voltage" })).not.toHaveAttribute(
      "aria-disabled",
      "true",
    );

    await selectFeeder(page, FEEDER_1);
    await expect(page.getByText("Select a parameter", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Voltage U (V)" }).click();
    await expect(page).toHaveURL(/feeders=[\w-]+.*parameters=u/);
    await waitForValues(page);

    const chart = page.getByRole("figure", { name: new RegExp(`^${FEEDER_1}, Voltage U \\(V\\)`) });
    await expect(chart).toBeVisible();
    await expect(page.getByTestId("resolution").first()).toHaveText("10-minute means");
    for (const phase of ["L1 U", "L2 U", "L3 U"]) {
      await expect(chart.getByText(phase, { exact: true })).toBeVisible();
    }
    await expect(chart.getByRole("button", { name: /PNG/ })).toBeVisible();
    await expect(chart.getByRole("button", { name: /CSV/ })).toBeVisible();

    // A drag over the chart zooms: the period in the URL becomes the selected span.
    const plot = chart.locator(".u-over");
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(page).toHaveURL(/from=[^&]+Z.*to=[^&]+Z/);
    await expect(page).not.toHaveURL(/range=/);
    await expect(page.getByRole("radio", { name: "Custom" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
    await expect(page.getByRole("figure", { name: new RegExp(`^${FEEDER_1}`) })).toBeVisible();

    // Histogram of the same selection, with its summary.
    await page.getByRole("radio", { name: "Histogram" }).click();
    await expect(page).toHaveURL(/chart=histogram/);
    await expect(page.getByText("95th percentile")).toBeVisible();
    await expect(page.getByRole("figure", { name: new RegExp(`^${FEEDER_1}`) })).toBeVisible();
  });

  test("compare: two feeders give two curves, a summary table and a shareable URL", async ({ page, browser }) => {
    await login(page, ACCOUNTS.user, "/visual-statistics/compare?voltage=lv");
    await expect(page.getByText("At least 2 feeders are needed")).toBeVisible();
    await selectFeeder(page, FEEDER_1);
    // One feeder is not enough to compare.
    await expect(page.getByText("At least 2 feeders are needed")).toBeVisible();
    await selectFeeder(page, FEEDER_2);
    await waitForValues(page);

    const chart = page.getByRole("figure", { name: /^Voltage U \(V\) · All phases of / });
    await expect(chart).toBeVisible();
    await expect(chart.getByText(FEEDER_1, { exact: true })).toBeVisible();
    await expect(chart.getByText(FEEDER_2, { exact: true })).toBeVisible();
    const rows = page.getByRole("table", { name: /Minimum, maximum and mean/ }).getByRole("row");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText("LV line 1");
    await expect(rows.nth(1)).toContainText(/\d+\.\d{2}\u00a0V/);
    await expect(rows.nth(2)).toContainText("Incoming line");

    // The URL holds the whole view: a new page opened on it shows the same comparison.
    await page.getByRole("radio", { name: "L2" }).click();
    await page.getByRole("radio", { name: "7 d" }).click();
    await expect(page).toHaveURL(/phase=L2/);
    const url = page.url();
    const other = await browser.newPage();
    await login(other, ACCOUNTS.user, url);
    await expect(other).toHaveURL(url);
    await expect(other.getByRole("figure", { name: /^Voltage U \(V\) · L2 of / })).toBeVisible();
    await expect(other.getByRole("checkbox", { name: FEEDER_1 })).toBeChecked();
    await expect(other.getByRole("checkbox", { name: FEEDER_2 })).toBeChecked();
    await expect(other.getByRole("radio", { name: "7 d" })).toHaveAttribute("aria-checked", "true");
    await expect(other.getByTestId("resolution")).toHaveText("10-minute means");
    await expect(other.getByRole("table", { name: /Minimum, maximum and mean/ }).getByRole("row"))
      .toHaveCount(3);
    await other.close();
  });

  test("at medium voltage an MV line's voltage reads in kV", async ({ page }) => {
    await login(page, ACCOUNTS.user, "/visual-statistics/statistics?voltage=mv&parameters=u");
    const panel = page.getByRole("complementary", { name: "Grid" });
    await panel.getByRole("searchbox", { name: "Search grid, node or feeder" }).fill("Dorf");
    await panel.getByRole("checkbox", { name: "TS Dorf › MV line to Obernau", exact: true })
      .check();
    await waitForValues(page);
    await expect(
      page.getByRole("figure", { name: /^TS Dorf › MV line to Obernau, Voltage U \(kV\)/ }),
    ).toBeVisible();
  });

  test("a period under 10 minutes is refused with the 403 message", async ({ page }) => {
    await login(page, ACCOUNTS.user, "/visual-statistics/statistics?voltage=lv&parameters=u");
    await selectFeeder(page, FEEDER_1);
    await page.getByRole("radio", { name: "Custom" }).click();
    // Typed in the customer's format and time zone.
    await fillInstant(page, "From", "2026-11-20 10:00");
    await fillInstant(page, "To", "2026-11-20 10:05");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("alert")).toContainText("The period must be at least 10 minutes.");

    // The same period from a link: explained, and nothing is asked from the server.
    await page.goto(
      "/visual-statistics/statistics?voltage=lv&parameters=u&from=2026-11-20T10:00:00.000Z&to=2026-11-20T10:05:00.000Z",
    );
    await expect(page.getByText("The period must be at least 10 minutes.")).toBeVisible();
  });

  test("bad input is explained: unknown feeder, no data (410), too many charts", async ({ page }) => {
    await login(
      page,
      ACCOUNTS.user,
      "/visual-statistics/statistics?voltage=lv&parameters=u&feeders=00000000-0000-0000-0000-000000000000",
    );
    await expect(page.getByRole("alert")).toContainText("This element of the grid was not found!");
    await page.getByRole("button", { name: "Remove it from the selection" }).click();
    await expect(page.getByText("Select a feeder", { exact: true })).toBeVisible();

    // Long before the demo cells were installed: the catalogue's 410 text instead of a chart.
    await selectFeeder(page, FEEDER_1);
    await page.getByRole("radio", { name: "Custom" }).click();
    await fillInstant(page, "From", "2020-01-01 00:00");
    await fillInstant(page, "To", "2020-01-02 00:00");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No voltage or current data is available.")).toBeVisible();
    await expect(page.getByText("Code 410")).toBeVisible();

    // The demo allows 6 charts: with U and I, a fourth feeder is refused with the reason.
    await page.getByRole("button", { name: "Current I (A)" }).click();
    const panel = page.getByRole("complementary", { name: "Grid" });
    await panel.getByRole("searchbox").fill("Seeblick");
    // By name: the search filters the list after its 500-ms delay.
    const box = (feeder: string) =>
      panel.getByRole("checkbox", { name: `TS Seeblick › ${feeder}`, exact: true });
    for (const feeder of ["Transformer 630 kVA", "LV line 2"]) await box(feeder).check();
    await expect(panel.getByText("3 feeders selected")).toBeVisible();
    await box("LV line 3").click();
    await expect(
      page.getByText(
        "At most 6 charts can be shown at once: with 2 parameters, at most 3 feeders fit.",
      ),
    ).toBeVisible();
    await expect(box("LV line 3")).not.toBeChecked();
    await expect(panel.getByText("3 feeders selected")).toBeVisible();
  });
});
