/**
 * Grid Monitoring through the real login with the demo simulator: counts and nodes, the
 * voltage level in the URL (Medium Voltage lists the two stations measuring MV lines, with MV
 * values), a node's detail, a manual custom monitoring started for 1 minute
 * and stopped, and a reload that gives the same view. Screenshots in both themes go
 * to E2E_SCREENSHOTS when it is set.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login, SCREENSHOTS, shot } from "./helpers.ts";

/**
 * Screenshots in the light and the dark theme: the theme is stored and the page reloaded (the
 * map takes its colours when it is created), then `ready` is waited for.
 */
async function themedShots(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  if (!SCREENSHOTS) return;
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("gw.theme", t), theme);
    await page.reload();
    await ready(page);
    await page.waitForTimeout(500);
    await shot(page, `${name}-${theme}`);
  }
  await page.evaluate(() => localStorage.setItem("gw.theme", "light"));
  await page.reload();
  await ready(page);
}

const listReady = async (page: Page) => {
  await expect(page.getByTestId("grid-list").locator("button[data-node-id]").first())
    .toBeVisible();
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
};
const nodeReady = async (page: Page) => {
  await expect(page.getByTestId("node-panel").getByTestId("feeder-table").first()).toBeVisible();
  await expect(page.getByTestId("node-panel").getByRole("figure").first()).toBeVisible({
    timeout: 30_000,
  });
};

/** Opens grid monitoring at a level and waits until the simulator's cells have sent. */
async function openGrid(page: Page, query = "") {
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, ACCOUNTS.user, `/grid-monitoring${query}`);
  await expect(page.getByTestId("count-OK")).toBeVisible();
  await expect(page.getByTestId("grid-list").locator("button[data-node-id]").first())
    .toBeVisible();
}

const rowsOf = (page: Page) => page.getByTestId("grid-list").locator("button[data-node-id]");

test.describe("grid monitoring", () => {
  test("the list shows before the map's library has loaded", async ({ page }) => {
    // Hold back the lazily loaded map chunk: the list must not wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/grid-map-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await openGrid(page);
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "false");
    await expect(page.getByTestId("grid-map")).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
  });

  test("counts per state, and a state filter that lives in the URL", async ({ page }) => {
    await login(page, ACCOUNTS.user, "/grid-monitoring");
    await expect(page).toHaveURL(/\/grid-monitoring\?voltage=lv$/);
    await expect(page.getByRole("heading", { name: /Grid Monitoring · Low Voltage/ }))
      .toBeVisible();
    await expect(rowsOf(page).first()).toBeVisible();
    await expect(async () => {
      expect(Number(await page.getByTestId("count-OK").locator(".tabular").textContent()))
        .toBeGreaterThan(0);
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await expect(page.getByTestId("evaluated-at")).toContainText("Evaluated at");
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
    await page.getByTestId("count-OK").click();
    await expect(page).toHaveURL(/state=OK/);
    await page.getByRole("button", { name: /^All nodes/ }).click();
    await expect(page).not.toHaveURL(/state=/);
    await themedShots(page, "list-1280", listReady);
  });

  test("the alarm chip is the alarm filter: it lists the nodes that raise an alarm", async ({ page }) => {
    await openGrid(page);
    const chip = page.getByTestId("alarms");
    await expect(chip).toHaveAttribute("aria-pressed", "false");
    const alarms = Number((await chip.textContent())!.replace(/\D/g, ""));
    await chip.click();
    await expect(page).toHaveURL(/state=ALARMS/);
    await expect(chip).toHaveAttribute("aria-pressed", "true");
    if (alarms > 0) {
      await expect(rowsOf(page)).toHaveCount(alarms);
      for (const row of await rowsOf(page).all()) await expect(row).not.toContainText("OK");
    } else {
      await expect(page.getByText("No node matches the filter")).toBeVisible();
    }
    await page.reload();
    await expect(chip).toHaveAttribute("aria-pressed", "true");
    await chip.click();
    await expect(page).not.toHaveURL(/state=/);
  });

  test("group rows show how many of their nodes are in each state", async ({ page }) => {
    await openGrid(page);
    const station = page.getByTestId("state-distribution").first();
    // The substation's 20 nodes: the OK ones counted beside the others, never one grey dot.
    await expect(async () => {
      const text = (await station.locator(".sr-only").textContent()) ?? "";
      const total = [...text.matchAll(/(\d+) /g)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(text).toMatch(/\d+ OK/);
      expect(total).toBe(20);
    }).toPass({ timeout: 60_000, intervals: [2_000] });
  });

  test("an empty grid says so and leads to Infrastructure Setup", async ({ page }) => {
    // A utility whose grid is not defined yet: the grid status has no station group.
    await page.route("**/evm/grid-monitoring/grid-status?**", (route) =>
      route.fulfill({
        json: {
          level: "LV",
          evaluated_at: new Date().toISOString(),
          has_mv_values: false,
          alarms: 0,
          counts: {
            OK: 0,
            UNDERVOLTAGE: 0,
            OVERVOLTAGE: 0,
            OVERCURRENT: 0,
            NO_DATA: 0,
            INTERRUPTION: 0,
          },
          station_groups: [],
        },
      }));
    await login(page, ACCOUNTS.admin, "/grid-monitoring");
    await expect(page.getByText("The grid structure is not yet defined!")).toBeVisible();
    await page.getByRole("link", { name: "Open Infrastructure Setup" }).click();
    await expect(page).toHaveURL(/\/infrastructure-setup/);
    await expect(page.getByRole("heading", { level: 1, name: "Infrastructure Setup" }))
      .toBeVisible();
  });

  test("manual run mode refreshes on request only", async ({ page }) => {
    await openGrid(page);
    await page.getByRole("switch", { name: /^Run mode/ }).click();
    const refresh = page.getByRole("button", { name: "Refresh", exact: true });
    await expect(refresh).toBeVisible();
    await expect(page.getByText("Auto: refreshed every 30 s")).toHaveCount(0);
    await refresh.click();
    await expect(page.getByTestId("evaluated-at")).toContainText("Evaluated at");
    await page.getByRole("switch", { name: /^Run mode/ }).click();
    await expect(refresh).toHaveCount(0);
  });

  test("medium voltage lists the two MV stations with phase voltages in kV", async ({ page }) => {
    await openGrid(page);
    const rows = rowsOf(page);
    const mediumVoltage = page.getByRole("radio", { name: "Medium Voltage" });
    await expect(mediumVoltage).not.toHaveAttribute("aria-disabled", "true");
    await mediumVoltage.click();
    await expect(page).toHaveURL(/voltage=mv/);
    await expect(page.getByRole("heading", { name: /Grid Monitoring · Medium Voltage/ }))
      .toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(async () => {
      expect(Number(await page.getByTestId("count-OK").locator(".tabular").textContent()))
        .toBe(2);
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await rows.filter({ hasText: "TS Dorf" }).click();
    const mvLine = page.getByTestId("node-panel").getByTestId("feeder-table").filter({
      hasText: "MV line to Obernau",
    });
    await expect(mvLine).toBeVisible();
    // At MV the panel shows kV: the phase voltage of a 16-kV grid, 9.24 kV, within +-10 %.
    await expect(mvLine.locator("thead")).toContainText("U (kV)");
    const mvKilovolts = Number(
      (await mvLine.locator("tbody tr").first().locator("td").first().textContent())!
        .replace(/[^0-9.]/g, ""),
    );
    expect(mvKilovolts).toBeGreaterThan(16 / Math.sqrt(3) * 0.9);
    expect(mvKilovolts).toBeLessThan(16 / Math.sqrt(3) * 1.1);
    await themedShots(page, "node-mv-1280", nodeReady);
    await page.getByRole("radio", { name: "Low Voltage" }).click();
    await expect(page).toHaveURL(/voltage=lv/);
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(2);
  });

  test("Medium Voltage follows the selected node: disabled with the spec's tooltip, never a dead end", async ({ page }) => {
    await openGrid(page);
    const mediumVoltage = page.getByRole("radio", { name: "Medium Voltage" });
    // A distribution cabinet has no MV values: the toggle says so.
    const cabinet = rowsOf(page).filter({ hasText: "CAB Werkstrasse" });
    await cabinet.click();
    await expect(page.getByTestId("node-panel").getByTestId("feeder-table").first()).toBeVisible();
    await expect(mediumVoltage).toHaveAttribute("aria-disabled", "true");
    await mediumVoltage.hover();
    await expect(page.getByRole("tooltip")).toHaveText(
      "There are no medium voltage values available at this node.",
    );
    await mediumVoltage.click({ force: true });
    await expect(page).toHaveURL(/voltage=lv/);
    // A station measuring an MV line enables it, and its MV detail opens.
    await rowsOf(page).filter({ hasText: "TS Industrie" }).click();
    await expect(mediumVoltage).not.toHaveAttribute("aria-disabled", "true");
    await mediumVoltage.click();
    await expect(page).toHaveURL(/voltage=mv/);
    await expect(page.getByTestId("node-panel").getByTestId("feeder-table").first()).toBeVisible();
    // A shared MV link of the cabinet offers its low voltage view instead of an error.
    await page.getByRole("radio", { name: "Low Voltage" }).click();
    const cabinetNode = await cabinet.getAttribute("data-node-id");
    await page.goto(`/grid-monitoring?voltage=mv&node=${cabinetNode}`);
    const panel = page.getByTestId("node-panel");
    await expect(panel).toContainText("No medium voltage values at this node");
    await expect(page.getByText("This element of the grid was not found!")).toHaveCount(0);
    await panel.getByRole("button", { name: "Show it at low voltage" }).click();
    await expect(page).toHaveURL(
      new RegExp(`voltage=lv.*node=${cabinetNode}|node=${cabinetNode}.*voltage=lv`),
    );
    await expect(panel.getByTestId("feeder-table").first()).toBeVisible();
  });

  test("a node's detail is in the URL: a reload gives the same view", async ({ page }) => {
    await openGrid(page);
    const first = rowsOf(page).first();
    const nodeId = await first.getAttribute("data-node-id");
    const nodeName = (await first.locator("span.font-medium").first().textContent())!;
    await first.click();
    await expect(page).toHaveURL(new RegExp(`node=${nodeId}`));
    const panel = page.getByTestId("node-panel");
    await expect(panel.getByRole("heading", { name: nodeName })).toBeVisible();
    await expect(panel.getByTestId("feeder-table").first()).toBeVisible();
    for (const phase of ["L1", "L2", "L3"]) {
      await expect(panel.getByTestId("feeder-table").first().getByText(phase, { exact: true }))
        .toBeVisible();
    }
    await expect(panel.getByRole("figure").first()).toBeVisible({ timeout: 30_000 });
    const url = page.url();
    await page.reload();
    await expect(page).toHaveURL(url);
    await expect(panel.getByRole("heading", { name: nodeName })).toBeVisible();
    await expect(page.locator(`button[data-node-id="${nodeId}"]`)).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await themedShots(page, "node-1280", nodeReady);
    // Wide screens: map and detail side by side.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect(page.getByTestId("grid-map")).toBeVisible();
    await expect(panel).toBeVisible();
    await themedShots(page, "node-1920", nodeReady);
    await panel.getByRole("button", { name: "Close the node detail" }).click();
    await expect(page).not.toHaveURL(/node=/);
    await themedShots(page, "list-1920", listReady);
  });

  test("a manual custom monitoring of 1 minute starts and stops", async ({ page }) => {
    await openGrid(page);
    await rowsOf(page).first().click();
    // The history above the section loads first: the panel's layout settles with it.
    const panel = page.getByTestId("node-panel");
    await expect(panel.getByRole("figure").first()).toBeVisible({ timeout: 30_000 });
    const custom = panel.getByTestId("custom-monitoring");
    await custom.getByRole("combobox", { name: "Duration" }).click();
    await page.getByRole("option", { name: "1 min", exact: true }).click();
    // One feeder of the node: the request list names it in its Feeder column.
    const feederChoice = custom.getByRole("combobox", { name: "Feeder" });
    let feederName = "All feeders";
    if (await feederChoice.count()) {
      await feederChoice.click();
      const option = page.getByRole("option").nth(1);
      feederName = (await option.textContent())!.trim();
      await option.click();
    }
    await custom.getByRole("button", { name: "Start now" }).click();
    await expect(custom.getByText(/^Running since/)).toBeVisible();
    await expect(custom.getByTestId("request-status").first()).toHaveText("Running");
    await expect(custom.getByRole("columnheader", { name: "Feeder" })).toBeVisible();
    await expect(custom.getByTestId("request-feeder").first()).toHaveText(feederName);
    await custom.getByRole("button", { name: "Stop now" }).click();
    await expect(custom.getByTestId("request-status").first()).toHaveText("Stopped");
    await expect(custom.getByRole("button", { name: "Start now" })).toBeVisible();
  });

  test("a silent node explains itself with its warnings", async ({ page }) => {
    await openGrid(page);
    const silent = rowsOf(page).filter({ hasText: "No data" }).first();
    test.skip(!(await silent.count()), "every demo node is sending");
    await silent.click();
    await expect(page.getByTestId("node-warnings")).toBeVisible();
    await themedShots(page, "silent-1280", async (p) => {
      await expect(p.getByTestId("node-warnings")).toBeVisible();
    });
  });

  test("settings: one Save for thresholds and trigger; the trigger needs both current deltas", async ({ page }) => {
    await login(page, ACCOUNTS.admin, "/grid-monitoring-settings");
    const editor = page.getByTestId("trigger-editor");
    await expect(editor).toBeVisible();
    // One save button for the whole page; the badge says what is stored, not what is typed.
    await expect(page.getByRole("button", { name: /^Save/ })).toHaveCount(1);
    const save = page.getByRole("button", { name: "Save", exact: true });
    const status = editor.getByTestId("trigger-status");
    const before = (await status.textContent())!;
    if (before === "Not set up") {
      await expect(editor.getByText(/^No trigger yet/)).toBeVisible();
      await expect(editor.getByRole("switch")).toHaveAttribute("aria-checked", "false");
    }
    await editor.getByLabel("Absolute current delta LV (A)").fill("");
    await editor.getByLabel("Absolute current delta MV (A)").fill("20");
    const enabled = editor.getByRole("switch");
    if ((await enabled.getAttribute("aria-checked")) !== "true") await enabled.click();
    await expect(status).toHaveText(before);
    await save.click();
    await expect(editor.getByText("Is required")).toBeVisible();
    await editor.getByLabel("Absolute current delta LV (A)").fill("50.125");
    await expect(editor.getByText(/Allowed values from 1 to 3/)).toBeVisible();
    await editor.getByLabel("Absolute current delta LV (A)").fill("50");
    await save.click();
    await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();
    await expect(status).toHaveText("Enabled");
    await expect(editor.getByText(/^No trigger yet/)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("trigger-status")).toHaveText("Enabled");
    await expect(page.getByLabel("Absolute current delta LV (A)")).toHaveValue("50");
    await page.setViewportSize({ width: 1280, height: 800 });
    await themedShots(page, "settings-1280", async (p) => {
      await expect(p.getByTestId("trigger-editor")).toBeVisible();
    });
  });
});
