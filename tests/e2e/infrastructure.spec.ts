/**
 * Infrastructure setup and metering information as an administrator and an operator meet them:
 * build a station group down to a node with feeders, see it on the map, a refused deletion with
 * the spec's confirmation and message, the electrical-works search, a map layer upload, and the
 * metering status of the demo's electrical works.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

// maplibre draws with WebGL: let headless Chromium use its software renderer.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--no-first-run",
    ],
  },
  viewport: { width: 1440, height: 900 },
});

test("metering information lists every electrical work of the demo with its state", async ({ page }) => {
  await login(page, ACCOUNTS.operator);
  await expect(page).toHaveURL(/\/metering-information/);
  const table = page.getByRole("table", { name: "Metering state of every electrical work" });
  // 20 electrical works of the demo and the header row (this test runs before any is added).
  await expect(table.getByRole("row")).toHaveCount(21);
  await expect(table.getByRole("cell", { name: /TS Seeblick/ })).toBeVisible();
  await shot(page, "metering-list", { fullPage: true });
  await page.getByRole("radio", { name: "Map" }).click();
  const map = page.getByTestId("grid-map");
  await expect(map).toHaveAttribute("data-ready", "true");
  await expect(map).toHaveAttribute("data-points", "20");
  await expect(map.locator("canvas")).toBeVisible();
  await shot(page, "metering-map", { fullPage: true });
  // The choice is in the URL: a reload (or a shared link) opens the map again.
  await expect(page).toHaveURL(/view=map/);
  await page.reload();
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
  await page.getByRole("radio", { name: "List" }).click();
});

test("metering information at medium voltage lists the works that measure MV only", async ({ page }) => {
  await login(page, ACCOUNTS.operator, "/metering-information?voltage=lv");
  const table = page.getByRole("table", { name: "Metering state of every electrical work" });
  await expect(table.getByRole("row")).toHaveCount(21);
  await page.getByRole("radio", { name: "Medium Voltage" }).click();
  await expect(page).toHaveURL(/voltage=mv/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Medium Voltage");
  // The demo's two stations measure an MV line: they, and only they, are listed.
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("cell", { name: /TS Dorf/ })).toBeVisible();
  await expect(table.getByRole("cell", { name: /TS Industrie/ })).toBeVisible();
  await expect(table.getByRole("cell", { name: /CAB / })).toHaveCount(0);
});

test("an admin builds a station group down to a node with feeders and sees it on the map", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup");
  await expect(page.getByRole("tab", { name: "Grid structure" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  const tree = page.getByRole("tree", { name: "Grid structure" });
  await expect(tree.getByText("Substation Lucerne South")).toBeVisible();
  await shot(page, "infrastructure-grid", { fullPage: true });

  // Station group, with the form mirroring the server's name rule.
  await page.getByRole("button", { name: "Add HV/MV station" }).first().click();
  let dialog = page.getByRole("dialog", { name: "New HV/MV station" });
  await dialog.getByLabel("Name").fill("ab");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Name must have minimum 3 characters.")).toBeVisible();
  await dialog.getByLabel("Name").fill("Substation E2E North");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(tree.getByText("Substation E2E North")).toBeVisible();

  await page.getByRole("button", { name: "Add MV feeder to Substation E2E North" }).click();
  dialog = page.getByRole("dialog", { name: "New MV feeder" });
  await dialog.getByLabel("Name").fill("MV feeder E2E");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(tree.getByText("MV feeder E2E")).toBeVisible();

  await page.getByRole("button", { name: "Add LV grid to MV feeder E2E" }).click();
  dialog = page.getByRole("dialog", { name: "New LV grid" });
  await dialog.getByLabel("Name").fill("LV grid E2E");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(tree.getByText("LV grid E2E")).toBeVisible();

  // Node with its electrical work and two feeders.
  await page.getByRole("button", { name: "Add node to LV grid E2E" }).first().click();
  dialog = page.getByRole("dialog", { name: "New node" });
  await dialog.getByLabel("Node name").fill("TS E2E Nord");
  await dialog.getByLabel("Electrical work name").fill("TS E2E Nord");
  await dialog.getByLabel("Electrical work type").click();
  await page.getByRole("option", { name: "Transformer Station" }).click();
  await dialog.getByLabel("Latitude").fill("47.045");
  await dialog.getByLabel("Longitude").fill("8.305");
  await dialog.getByLabel("Feeder name").fill("LV line E2E");
  await dialog.getByLabel("Nominal current").fill("250");
  await dialog.getByRole("button", { name: "Add feeder" }).click();
  const second = dialog.locator("fieldset > div.rounded-md").nth(1);
  await second.getByLabel("Feeder name").fill("PV roof E2E");
  await second.getByLabel("Type").click();
  await page.getByRole("option", { name: "PV Inverter" }).click();
  await second.getByLabel("In or out").click();
  await page.getByRole("option", { name: "Input" }).click();
  await second.getByLabel("Nominal current").fill("63");
  await second.getByLabel("Minimum power factor").fill("0.7001");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("Value must be between 0.7 and 1")).toBeVisible();
  await second.getByLabel("Minimum power factor").fill("0.95");
  await shot(page, "infrastructure-node-dialog", { fullPage: true });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  const details = page.getByRole("region", { name: "Details" });
  await expect(details.getByRole("heading", { name: "TS E2E Nord" })).toBeVisible();
  await expect(details.getByRole("cell", { name: "LV line E2E", exact: true })).toBeVisible();
  await expect(details.getByRole("cell", { name: "PV Inverter", exact: true })).toBeVisible();
  await shot(page, "infrastructure-node-details", { fullPage: true });

  // On the map: the selected node opens its popup at node zoom.
  await page.getByRole("radio", { name: "Map" }).click();
  const map = page.getByTestId("grid-map");
  await expect(map).toHaveAttribute("data-ready", "true");
  // The structure's lines are drawn under the points, and the legend says what they are.
  await expect(map).toContainText("MV feeders and LV lines of the structure");
  await tree.getByRole("button", { name: /^TS E2E Nord/ }).click();
  await expect(map.locator(".maplibregl-popup")).toContainText("TS E2E Nord");
  await shot(page, "infrastructure-map", { fullPage: true });

  // A deletion a rule blocks says why at once, without the irreversible-delete question.
  await page.getByRole("button", { name: "Delete Substation E2E North" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByRole("alert")).toContainText(
    "A station with MV feeders cannot be deleted.",
  );
  await expect(tree.getByText("Substation E2E North")).toBeVisible();
  await page.getByRole("button", { name: "Delete LV grid E2E" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByRole("alert")).toContainText("An LV grid with nodes cannot be deleted.");
  await shot(page, "infrastructure-refused-delete", { fullPage: true });
  // The message belongs to that element: selecting another one clears it.
  await tree.getByRole("button", { name: /^MV feeder E2E/ }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
  // A deletion no rule blocks asks the spec's question (cancelled here).
  await page.getByRole("radio", { name: "List" }).click();
  await tree.getByRole("button", { name: /^TS E2E Nord/ }).click();
  await page.getByRole("button", { name: "Delete PV roof E2E" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(
    "This action is irrecoverable, are you sure you want to delete?",
  );
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
});

test("the electrical-works search finds at most 10 works and selects one", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup");
  const search = page.getByRole("combobox", { name: "Search electrical works" });
  await search.fill("CAB");
  const results = page.getByRole("listbox", { name: "Electrical works found" });
  await expect(results.getByRole("option")).toHaveCount(10);
  await search.fill("Kirchweg");
  await results.getByRole("option", { name: /CAB Kirchweg/ }).click();
  const details = page.getByRole("region", { name: "Details" });
  await expect(details.getByRole("heading", { name: "CAB Kirchweg" })).toBeVisible();
  await expect(details.getByRole("cell", { name: "PV roof school", exact: true })).toBeVisible();
  // The selection is part of the URL: a reload shows the same element.
  await expect(page).toHaveURL(/[?&]item=node(:|%3A)/);
  await page.reload();
  await expect(details.getByRole("heading", { name: "CAB Kirchweg" })).toBeVisible();
});

test("an admin uploads a map layer and a wrong file type is refused", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup");
  await page.getByRole("button", { name: /Map layers/ }).click();
  const dialog = page.getByRole("dialog", { name: "Map layers" });
  await expect(dialog.getByText("No map layer uploaded yet.")).toBeVisible();
  const input = dialog.getByLabel("Map layer file");
  await input.setInputFiles({
    name: "grid.shp",
    mimeType: "application/octet-stream",
    buffer: Buffer.from("x"),
  });
  await expect(dialog.getByRole("alert")).toContainText(
    "Allowed file types: .kml, .json, .geojson",
  );
  await input.setInputFiles({
    name: "cables.geojson",
    mimeType: "application/geo+json",
    buffer: Buffer.from(JSON.stringify({
      type: "FeatureCollection",
      features: [{
        type: "Feature",
        properties: { name: "Cable" },
        geometry: { type: "LineString", coordinates: [[8.27, 47.03], [8.29, 47.04]] },
      }],
    })),
  });
  await expect(dialog.getByText("cables")).toBeVisible();
  await shot(page, "infrastructure-map-layers", { fullPage: true });
});
