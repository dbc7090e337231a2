/**
 * IO monitoring end to end through the real login: a user holding app:io-monitoring opens
 * /io-monitoring, searches and selects an electrical work (kept in the URL), sees its modules
 * with the state of each digital channel (icon and label) and the analog value with its unit,
 * and the history charts; the period choice lives in the URL. Screenshots in both themes at
 * 1280 and 1920 px go to /tmp/io/.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

test("an operator follows the doors, relays and temperatures of an electrical work", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, ACCOUNTS.user, "/io-monitoring");
  await expect(page.getByRole("heading", { name: "IO Monitoring", level: 1 })).toBeVisible();
  const list = page.getByRole("navigation", { name: "Electrical works with I/O modules" });
  // Every measured demo cell has the demo's I/O modules (other specs may relink one of them).
  await expect(list.getByRole("button", { name: /^TS Seeblick/ })).toBeVisible();
  expect(await list.getByRole("button").count()).toBeGreaterThanOrEqual(15);
  await expect(page.getByText("Select an electrical work")).toBeVisible();

  await list.getByRole("searchbox").fill("seeblick 2");
  await expect(list.getByRole("button")).toHaveCount(1);
  await list.getByRole("searchbox").fill("xyz");
  await expect(list.getByText("No electrical work matches “xyz”.")).toBeVisible();
  await list.getByRole("searchbox").fill("TS Seeblick");
  await list.getByRole("button", { name: /TS Seeblick/ }).click();
  await expect(page).toHaveURL(/ew=/);

  const door = page.getByRole("region", { name: "Module 1 Station door" });
  const relay = page.getByRole("region", { name: "Module 2 Boiler release" });
  const temperature = page.getByRole("region", { name: "Module 3 Cabinet temperature" });
  await expect(door).toBeVisible();
  // The simulator's cells send every 20 s (the last hour is filled in first): wait for a state.
  await expect(async () => {
    await expect(door.getByRole("row").nth(1).getByText(/^(On|Off)$/)).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 90_000, intervals: [5_000] });
  await expect(relay.getByRole("row").nth(1).getByText(/^(On|Off)$/)).toBeVisible();
  // The temperature reads in °C on the module's measuring range, its signal in small print.
  const value = temperature.getByRole("row").nth(1).getByTestId("analog-value");
  await expect(value).toContainText("°C");
  await expect(value.locator("small")).toContainText("mA");
  // Channel 2 of each demo module is not wired: it says so.
  await expect(door.getByRole("row").nth(2)).toContainText("Not in use");
  await expect(temperature.getByRole("row").nth(2)).toContainText("Not in use");
  await expect(temperature).toContainText("Range -20.00 to 80.00 °C");
  await expect(door).toContainText("Digital input · Dry contact · 2 channels");

  const history = page.getByRole("region", { name: "History of TS Seeblick" });
  await expect(history.getByRole("radio", { name: "24 hours" })).toBeChecked();
  await expect(history.getByText("Station door · channel 1").first()).toBeVisible();
  await expect(history.getByTestId("time-chart").first().locator("canvas").first()).toBeVisible();
  await expect(history.getByText("Cabinet temperature · channel 1").first()).toBeVisible();
  await expect(history.getByText(/No values in this period\. .*Station door · channel 2/))
    .toBeVisible();

  await history.getByRole("radio", { name: "7 days" }).click();
  await expect(page).toHaveURL(/period=7d/);
  await expect(history.getByText("10-minute mean, min and max")).toBeVisible();
  // Reload keeps the view (electrical work and period from the URL).
  await page.reload();
  await expect(page.getByRole("heading", { name: "TS Seeblick", level: 2 })).toBeVisible();
  await expect(
    page.getByRole("region", { name: "History of TS Seeblick" }).getByRole("radio", {
      name: "7 days",
    }),
  ).toBeChecked();

  await history.getByRole("radio", { name: "24 hours" }).click();
  await expect(page).toHaveURL(/period=24h/);
  await expect(history.getByText("20-second values")).toHaveCount(0);
  for (const chart of ["Station door · channel 1", "Cabinet temperature · channel 1"]) {
    await expect(history.getByRole("figure", { name: chart }).getByTestId("time-chart"))
      .toBeVisible();
  }
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 1080 });
      await expect(history.getByTestId("time-chart").last().locator("canvas").first())
        .toBeVisible();
      await page.waitForTimeout(800);
      await shot(page, `io-${width}-${scheme}`, { fullPage: true });
    }
  }
});

test("an admin gives an analog input its measuring range in the I/O configuration", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#io-configuration");
  const list = page.getByRole("table").first();
  await expect(list.getByRole("row", { name: /Cabinet temperature/ }).getByTestId("io-scale"))
    .toHaveText("4–20 mA → -20.00 to 80.00 °C");

  const form = page.getByRole("form", { name: "New module" });
  await form.getByLabel("Name").fill("Tank level");
  await form.getByLabel("Module type").click();
  await page.getByRole("option", { name: "Analog input" }).click();
  await form.getByLabel("Size").click();
  await page.getByRole("option", { name: "2 channels" }).click();
  await form.getByLabel("Resolution").fill("0.01");
  await form.getByLabel("From").fill("100");
  await form.getByLabel("To").fill("0");
  await form.getByLabel("Unit").fill("%");
  await form.getByRole("button", { name: "Add module" }).click();
  await expect(form.getByText("The end of the range must be above its start.")).toBeVisible();
  await form.getByLabel("From").fill("0");
  await form.getByLabel("To").fill("100");
  await form.getByRole("button", { name: "Add module" }).click();
  const tank = list.getByRole("row", { name: /Tank level/ });
  await expect(tank.getByTestId("io-scale")).toHaveText("0–10 V → 0.00 to 100.00 %");

  // Changed later in its dialog, then removed: the raw signal again.
  await tank.getByRole("button", { name: "Measuring range of Tank level" }).click();
  const dialog = page.getByRole("dialog", { name: "Measuring range of Tank level" });
  await dialog.getByLabel("To").fill("250");
  await dialog.getByLabel("Unit").fill("cm");
  await dialog.getByRole("button", { name: "Save range" }).click();
  await expect(tank.getByTestId("io-scale")).toHaveText("0–10 V → 0.00 to 250.00 cm");
  await tank.getByRole("button", { name: "Measuring range of Tank level" }).click();
  await dialog.getByRole("button", { name: "Remove range" }).click();
  await expect(tank.getByTestId("io-scale")).toHaveText("0–10 V, no range");
  await page.reload();
  await expect(
    page.getByRole("table").first().getByRole("row", { name: /Tank level/ }).getByTestId(
      "io-scale",
    ),
  ).toHaveText("0–10 V, no range");
});
