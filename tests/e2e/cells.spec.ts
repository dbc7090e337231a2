/**
 * Cells in the infrastructure setup: an administrator takes a cell from stock, frees a node,
 * links a waiting cell to it, maps its probes (unmapping cascades), validates the mapping and
 * sees the verdict; then defines and activates an I/O module in #io-configuration.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

async function choose(page: Page, trigger: string, option: string) {
  await page.getByRole("combobox", { name: trigger, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("an admin links a cell to a node, maps it and validates the mapping", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#cells");
  const stock = page.getByRole("region", { name: "Cells in stock" });
  await expect(stock.getByText("GW-2026-0021")).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Cells in the field" }).getByText("20", { exact: true }),
  )
    .toBeVisible();

  // From stock to 'waiting for configuration'.
  await stock.getByRole("button", { name: /GW-2026-0021/ }).click();
  await page.getByRole("button", { name: "Take from stock" }).click();
  const waiting = page.getByRole("region", { name: "Cells waiting for configuration" });
  await expect(waiting.getByText("GW-2026-0021")).toBeVisible();

  // Free a node: unlink the cell measuring CAB Seeblick 4 (found by the delayed search).
  await page.getByRole("searchbox", { name: "Search cells" }).fill("Seeblick 4");
  const results = page.getByRole("region", { name: "Search results" });
  await results.getByRole("button").first().click();
  await page.getByRole("button", { name: "Unlink" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Unlink" }).click();
  // The cell is waiting again; without its node, the search no longer finds it.
  await expect(
    page.getByRole("region", { name: /^Cell GW-2026-/ }).getByText(
      "Cells waiting for configuration",
    ),
  ).toBeVisible();
  await expect(results.getByText("No cell matches your search.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search cells" }).fill("");

  // Link a connected waiting cell to the freed node.
  await waiting.getByRole("button", { name: /GW-2026-0024/ }).click();
  await expect(page.getByRole("img", { name: "GSM signal: excellent" }).first()).toBeVisible();
  await page.getByRole("button", { name: "Link to a node" }).click();
  const dialog = page.getByRole("dialog");
  await choose(page, "Node", "CAB Seeblick 4 · LV grid Seeblick");
  await shot(page, `link-dialog`);
  await dialog.getByRole("button", { name: "Link" }).click();
  const detail = page.getByRole("region", { name: "Cell GW-2026-0024" });
  await expect(detail.getByText("Not Completed").first()).toBeVisible();

  // Map the incoming line; unmapping L2 unmaps L3.
  const probe = (phase: string) => `Probe of ${phase} on Incoming line`;
  await choose(page, probe("L1"), "Probe 1");
  await choose(page, probe("L2"), "Probe 2");
  await choose(page, probe("L3"), "Probe 3");
  await choose(page, probe("L2"), "Not mapped");
  await expect(page.getByRole("combobox", { name: probe("L3") })).toHaveText("Not mapped");
  await expect(page.getByRole("combobox", { name: probe("L3") })).toBeDisabled();
  await choose(page, probe("L2"), "Probe 2");
  await choose(page, probe("L3"), "Probe 3");
  await detail.getByRole("button", { name: "Save mapping" }).click();
  await expect(detail.getByText("Mapping saved.")).toBeVisible();

  // No measurement arrives in this test: the validation ends in the spec's timeout message.
  await detail.getByRole("button", { name: "Validate mapping" }).click();
  const verdict = detail.getByRole("status", { name: "Mapping validation result" });
  await expect(verdict.getByText("Mapping validation timeout. Try again!")).toBeVisible();
  await expect(verdict.getByText("Result: no conclusion")).toBeVisible();
  await shot(page, `cells-tab`, { fullPage: true });
  await shot(detail, `cell-detail`);
});

test("the I/O configuration tab defines and activates modules with the spec's messages", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#io-configuration");
  await expect(page.getByText(/Activated modules must match the number and types/)).toBeVisible();
  await expect(page.getByText(/not supported by DTVI devices/)).toBeVisible();
  const form = page.getByRole("form", { name: "New module" });
  await form.getByRole("button", { name: "Add module" }).click();
  await expect(form.getByText("Please input a name.")).toBeVisible();
  await expect(form.getByText("Please select a module size.")).toBeVisible();
  await expect(form.getByText("Please set module resolution.")).toBeVisible();
  await expect(form.getByText("Allowed values from -1 to 1")).toHaveCount(0);

  await form.getByLabel("Name").fill("Door contact");
  await choose(page, "Size", "2 channels");
  await form.getByLabel("Resolution").fill("1.5");
  await expect(form.getByText("Resolution value must be between -1 and 1")).toBeVisible();
  await form.getByLabel("Resolution").fill("1");
  await form.getByRole("button", { name: "Add module" }).click();
  await expect(page.getByRole("cell", { name: "Door contact", exact: true })).toBeVisible();

  await page.getByRole("combobox", { name: "Cell in the field" }).click();
  await page.getByRole("option").first().click();
  await choose(page, "Module", "Door contact · Digital input");
  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByText("Module 1")).toBeVisible();
  await shot(page, `io-configuration`, { fullPage: true });
});

test("a miswired cell's verdict shows the spec's message and the fix", async ({ page }) => {
  // The e2e server runs without the simulator: the validation answer is the one the server
  // gives for the demo's miswired cell on simulated data (tests/integration/cells_setup_test.ts).
  await page.route("**/gsm/cells/*/mapping/validate", async (route) => {
    const feeder = (slot: number, id: string) => ({
      feeder_id: id,
      slot,
      verdict: "SHIFT_LEFT",
      certainty: "CERTAIN",
      message_key: "mapping.verdict.invalid",
      likely: null,
      more_measurements: 0,
      phases: [],
    });
    const mapping = await (await page.request.get(
      route.request().url().replace(/\/validate$/, ""),
      { headers: route.request().headers() },
    )).json() as { feeders: { id: string; slot: number }[] };
    await route.fulfill({
      json: {
        at: new Date().toISOString(),
        verdict: "SHIFT_LEFT",
        certainty: "CERTAIN",
        message_key: "mapping.verdict.invalid",
        more_measurements: 0,
        feeders: mapping.feeders.slice(0, 1).map((f) => feeder(f.slot, f.id)),
      },
    });
  });
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#cells");
  await page.getByRole("searchbox", { name: "Search cells" }).fill("Mühlebach");
  await page.getByRole("region", { name: "Search results" }).getByRole("button").first().click();
  const detail = page.getByRole("region", { name: /^Cell GW-2026-/ });
  await expect(detail.getByText("Mapping version 1 is applied by the cell.")).toBeVisible();
  await detail.getByRole("button", { name: "Validate mapping" }).click();
  const verdict = detail.getByRole("status", { name: "Mapping validation result" });
  await expect(
    verdict.getByText("not valid, try to shift right/left or invert L2 & L3, L1 & L3, L1 & L2"),
  ).toBeVisible();
  await expect(verdict.getByText(/Shift the mapping left: L1 → L3/)).toBeVisible();
  await expect(verdict.getByRole("button", { name: "Ignore results" })).toBeVisible();
  await shot(detail, `verdict-shift-left`);
});
