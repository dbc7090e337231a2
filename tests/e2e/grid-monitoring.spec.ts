/**
 * Grid Monitoring through the real login with the demo simulator: counts and nodes, the
 * voltage level in the URL (Medium Voltage lists the two stations measuring MV lines, with MV
 * values), a node's detail, a manual custom monitoring started for 1 minute
 * and stopped, and a reload that gives the same view. Screenshots in both themes and widths go
 * to /tmp/gm/.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";

const SHOTS = process.env.GM_SHOTS ?? "/tmp/gm";

/**
 * Screenshots in the light and the dark theme: the theme is stored and the page reloaded (the
 * map takes its colours when it is created), then `ready` is waited for.
 */
async function shot(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("gw.theme", t), theme);
    await page.reload();
    await ready(page);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
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

test.describe("grid monitoring", () => {
  test("counts, nodes, levels, a node's detail and a manual custom monitoring", async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, ACCOUNTS.user, "/grid-monitoring");
    await expect(page).toHaveURL(/\/grid-monitoring\?voltage=lv$/);
    await expect(page.getByRole("heading", { name: /Grid Monitoring · Low Voltage/ }))
      .toBeVisible();

    // Counts per state and the nodes, once the simulator's cells have sent.
    await expect(page.getByTestId("count-OK")).toBeVisible();
    const rows = page.getByTestId("grid-list").locator("button[data-node-id]");
    await expect(rows.first()).toBeVisible();
    await expect(async () => {
      expect(Number(await page.getByTestId("count-OK").locator(".tabular").textContent()))
        .toBeGreaterThan(0);
    }).toPass({ timeout: 60_000, intervals: [2_000] });
    await expect(page.getByTestId("evaluated-at")).toContainText("Evaluated at");
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");

    // A state filter lives in the URL and narrows the list.
    await page.getByTestId("count-OK").click();
    await expect(page).toHaveURL(/state=OK/);
    await page.getByRole("button", { name: /^All nodes/ }).click();
    await expect(page).not.toHaveURL(/state=/);
    await shot(page, "list-1280", listReady);

    // Manual run mode: no automatic refresh, a Refresh button with the evaluation time.
    await page.getByRole("switch", { name: /^Run mode/ }).click();
    const refresh = page.getByRole("button", { name: "Refresh", exact: true });
    await expect(refresh).toBeVisible();
    await expect(page.getByText("Auto: refreshed every 30 s")).toHaveCount(0);
    await refresh.click();
    await expect(page.getByTestId("evaluated-at")).toContainText("Evaluated at");
    await page.getByRole("switch", { name: /^Run mode/ }).click();
    await expect(refresh).toHaveCount(0);

    // Two demo stations measure MV lines: Medium Voltage lists them, OK, with kV-range values.
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
    await shot(page, "node-mv-1280", nodeReady);
    await page.getByTestId("node-panel").getByRole("button", { name: "Close the node detail" })
      .click();
    await page.getByRole("radio", { name: "Low Voltage" }).click();
    await expect(page).toHaveURL(/voltage=lv/);
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(2);

    // Open a node: the URL names it, the panel shows its feeders and phases.
    const first = rows.first();
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

    // A manual custom monitoring of 1 minute, then stopped.
    const custom = panel.getByTestId("custom-monitoring");
    await custom.getByRole("combobox", { name: "Duration" }).click();
    await page.getByRole("option", { name: "1 min", exact: true }).click();
    await custom.getByRole("button", { name: "Start now" }).click();
    await expect(custom.getByText(/^Running since/)).toBeVisible();
    await expect(custom.getByTestId("request-status").first()).toHaveText("Running");
    await custom.getByRole("button", { name: "Stop now" }).click();
    await expect(custom.getByTestId("request-status").first()).toHaveText("Stopped");
    await expect(custom.getByRole("button", { name: "Start now" })).toBeVisible();
    await shot(page, "node-1280", nodeReady);

    // The same URL gives the same view.
    const url = page.url();
    await page.reload();
    await expect(page).toHaveURL(url);
    await expect(page.getByTestId("node-panel").getByRole("heading", { name: nodeName }))
      .toBeVisible();
    await expect(page.locator(`button[data-node-id="${nodeId}"]`)).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    // Wide screens: map and detail side by side.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect(page.getByTestId("grid-map")).toBeVisible();
    await shot(page, "node-1920", nodeReady);
    await page.getByTestId("node-panel").getByRole("button", { name: "Close the node detail" })
      .click();
    await expect(page).not.toHaveURL(/node=/);
    await shot(page, "list-1920", listReady);

    // A silent node explains itself: no data since its last value.
    await page.setViewportSize({ width: 1280, height: 800 });
    const silent = page.getByTestId("grid-list").locator("button[data-node-id]", {
      hasText: "No data",
    }).first();
    if (await silent.count()) {
      await silent.click();
      await expect(page.getByTestId("node-warnings")).toBeVisible();
      await shot(page, "silent-1280", async (p) => {
        await expect(p.getByTestId("node-warnings")).toBeVisible();
      });
    }
  });

  test("settings: the automatic trigger needs both current deltas", async ({ page }) => {
    await login(page, ACCOUNTS.admin, "/grid-monitoring-settings");
    const editor = page.getByTestId("trigger-editor");
    await expect(editor).toBeVisible();
    await editor.getByLabel("Absolute current delta LV (A)").fill("");
    await editor.getByLabel("Absolute current delta MV (A)").fill("20");
    await editor.getByRole("button", { name: "Save trigger" }).click();
    await expect(editor.getByText("Is required")).toBeVisible();
    await editor.getByLabel("Absolute current delta LV (A)").fill("50.125");
    await expect(editor.getByText(/Allowed values from 1 to 3/)).toBeVisible();
    await editor.getByLabel("Absolute current delta LV (A)").fill("50");
    await editor.getByRole("button", { name: "Save trigger" }).click();
    await expect(editor.getByText("The trigger is saved.")).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, "settings-1280", async (p) => {
      await expect(p.getByTestId("trigger-editor")).toBeVisible();
    });
  });
});
