/**
 * The grid map orients (issue 19): the network drawn from the structure under the nodes, names
 * from the spec's zoom levels with the product's own glyphs, clusters as rings of state shares,
 * and a legend; all of it with every request outside the product blocked. What is drawn is read
 * through the map's test hook (the maplibre instance on its container, queryRenderedFeatures).
 * Screenshots of LV and MV, zoomed in and out, light and dark, go to E2E_SCREENSHOTS when set.
 */
import { expect, type Page, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { ACCOUNTS, login, SCREENSHOTS, shot } from "./helpers.ts";

type Drawn = { layer: string; name?: string; props: Record<string, unknown> };

/** Runs `fn` on the maplibre instance of the grid map. */
async function withMap<T>(page: Page, fn: string, arg?: unknown): Promise<T> {
  return await page.getByTestId("grid-map").locator(".maplibregl-map").evaluate(
    (el, [body, a]) => {
      const map = (el as unknown as { gridMap: unknown }).gridMap;
      return new Function("map", "arg", body as string)(map, a);
    },
    [fn, arg] as const,
  ) as T;
}

/** Moves the camera and waits until the map has drawn everything (tiles, glyphs, images). */
async function view(page: Page, center: [number, number] | null, zoom: number) {
  await withMap(
    page,
    `return new Promise((resolve) => {
      map.once("idle", () => resolve(null));
      map.jumpTo({ ...(arg.center ? { center: arg.center } : {}), zoom: arg.zoom });
      map.triggerRepaint();
    })`,
    { center, zoom },
  );
  // Symbols are placed over a few frames after the first idle.
  await page.waitForTimeout(400);
  await withMap(page, `return new Promise((r) => { map.once("idle", r); map.triggerRepaint(); })`);
}

/** The features drawn now in some layers. */
async function drawn(page: Page, layers: string[]): Promise<Drawn[]> {
  return await withMap<Drawn[]>(
    page,
    `return map.queryRenderedFeatures({ layers: arg.filter((l) => map.getLayer(l)) })
      .map((f) => ({ layer: f.layer.id, name: f.properties.name, props: f.properties }));`,
    layers,
  );
}

const names = (features: Drawn[], layer: string) =>
  [...new Set(features.filter((f) => f.layer === layer).map((f) => f.name))].sort();

/** The demo grid's station and its first transformer station (modules/demo/grid.ts). */
const SUBSTATION: [number, number] = [8.2797, 47.0321];
const TS_SEEBLICK: [number, number] = [8.2864, 47.0368];
const CAB_SEEBLICK_1: [number, number] = [8.2881, 47.0374];

async function openMap(page: Page, voltage: "lv" | "mv") {
  await page.setViewportSize({ width: 1600, height: 900 });
  await login(page, ACCOUNTS.user, `/grid-monitoring?voltage=${voltage}`);
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
  // The network arrives with the structure.
  await expect.poll(
    async () => (await withMap<number>(
      page,
      `return map.querySourceFeatures("network-lines").length`,
    )),
    { timeout: 15_000 },
  ).toBeGreaterThan(0);
}

async function themedShots(page: Page, name: string, voltage: "lv" | "mv") {
  if (!SCREENSHOTS) return;
  test.setTimeout(240_000);
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("gw.theme", t), theme);
    await page.reload();
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
    await expect.poll(
      async () => (await withMap<number>(
        page,
        `return map.querySourceFeatures("network-lines").length`,
      )),
    ).toBeGreaterThan(0);
    for (
      const [label, center, zoom] of [
        ["out", SUBSTATION, 12],
        ["work", SUBSTATION, 15],
        ["in", CAB_SEEBLICK_1, 18],
      ] as const
    ) {
      await view(page, [...center], zoom);
      const box = await page.getByTestId("grid-map").boundingBox();
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({
        path: `${SCREENSHOTS}/map-${name}-${label}-${theme}.png`,
        ...(box ? { clip: box } : {}),
      });
      if (label === "work") await shot(page, `map-${name}-page-${theme}`);
    }
  }
  await page.evaluate(() => localStorage.setItem("gw.theme", "light"));
  void voltage;
}

test.describe("grid map", () => {
  test("LV: the network under the nodes, names by zoom, clusters by state shares, a legend", async ({ page }) => {
    await openMap(page, "lv");
    const legend = page.getByTestId("map-legend");
    await expect(legend).toBeVisible();
    for (
      const text of [
        "Colour: state",
        "Shape: element",
        "Substation (HV/MV)",
        "Transformer Station",
        "Distribution Cabinet",
        "MV feeder",
        "LV grid (in feeder order)",
        "the ring shows the share of each state",
        "Size:",
      ]
    ) await expect(legend).toContainText(text);
    await expect(page.getByTestId("map-legend-zoom")).toContainText("Names from zoom 10");
    // Closed, the legend stays closed on the next visit until opened again.
    await legend.getByRole("button", { name: "Legend" }).click();
    await expect(legend).not.toContainText("Colour: state");
    await page.reload();
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("map-legend")).not.toContainText("Colour: state");
    await page.getByTestId("map-legend").getByRole("button", { name: "Legend" }).click();
    await expect(page.getByTestId("map-legend")).toContainText("Colour: state");

    // Zoomed out: the grid as rings whose shares add up to the member count, no names yet.
    await view(page, SUBSTATION, 11);
    const out = await drawn(page, ["grid-clusters", "grid-points", "network-lv-labels"]);
    const clusters = out.filter((f) => f.layer === "grid-clusters");
    expect(clusters.length).toBeGreaterThan(0);
    for (const c of clusters) {
      const p = c.props as Record<string, number>;
      expect(p.ok! + p.warning! + p.critical! + p.offline! + p.unknown!).toBe(p.point_count);
    }
    expect(names(out, "network-lv-labels")).toEqual([]);
    const members = clusters.reduce((sum, c) => sum + Number(c.props.point_count), 0) +
      out.filter((f) => f.layer === "grid-points").length;
    expect(members).toBe(Number(await page.getByTestId("grid-map").getAttribute("data-points")));

    // Working zoom: the MV feeders and LV grids are drawn and named.
    await view(page, SUBSTATION, 16);
    const work = await drawn(page, [
      "network-mv",
      "network-lv",
      "network-stations",
      "network-station-labels",
      "network-mv-labels",
      "network-lv-labels",
    ]);
    expect(names(work, "network-mv").length).toBeGreaterThan(0);
    expect(names(work, "network-lv").length).toBeGreaterThan(0);
    expect(names(work, "network-station-labels")).toEqual(["Substation Lucerne South"]);
    expect(names(work, "network-lv-labels").length).toBeGreaterThan(0);

    // Close in: the electrical works by name.
    await view(page, TS_SEEBLICK, 18);
    const close = await drawn(page, ["grid-work-labels", "grid-points"]);
    expect(close.filter((f) => f.layer === "grid-points").length).toBeGreaterThan(0);
    expect(names(close, "grid-work-labels")).toContain("TS Seeblick");

    await themedShots(page, "lv", "lv");
  });

  test("MV: the MV feeders from the station, with the MV stations", async ({ page }) => {
    await openMap(page, "mv");
    await expect(page.getByTestId("map-legend")).toContainText("MV feeder");
    await expect(page.getByTestId("map-legend")).not.toContainText("LV grid (in feeder order)");
    // TS Seeblick and TS Hang have no MV values: their MV spans say so.
    await expect(page.getByTestId("map-legend")).toContainText("Not measured at this level");
    await view(page, SUBSTATION, 16);
    const work = await drawn(page, ["network-mv", "network-lv", "network-mv-labels"]);
    expect(names(work, "network-mv")).toEqual([
      "MV feeder Hang",
      "MV feeder Industrie",
      "MV feeder Seeblick",
    ]);
    expect(names(work, "network-lv")).toEqual([]);
    expect(names(work, "network-mv-labels").length).toBeGreaterThan(0);
    await themedShots(page, "mv", "mv");
  });

  test("offline: with every request outside the product blocked, the map draws its names", async ({ page }) => {
    const outside: string[] = [];
    await page.route("**/*", (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === "localhost" || host === "127.0.0.1") return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    const glyphs: number[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/fonts/")) glyphs.push(r.status());
    });
    await openMap(page, "lv");
    await view(page, TS_SEEBLICK, 18);
    const close = await drawn(page, ["grid-work-labels", "network-lv-labels"]);
    expect(names(close, "grid-work-labels")).toContain("TS Seeblick");
    expect(glyphs.length).toBeGreaterThan(0);
    expect(glyphs.every((s) => s === 200)).toBe(true);
    expect(outside).toEqual([]);
  });

  test("an online basemap set in Global Settings is checked, drawn under the network through the product, and removable", async ({ page }) => {
    const url = page.getByLabel("Online basemap: tile URL template (optional)");
    const attribution = page.getByLabel("Online basemap: attribution");
    const save = async () => {
      await page.getByRole("button", { name: "Save", exact: true }).click();
    };
    await login(page, ACCOUNTS.admin, "/global-settings");
    await expect(url).toHaveValue("");
    // The form refuses what the server refuses.
    await url.fill("http://tiles.example.org/{z}/{x}.png");
    await save();
    await expect(
      page.getByText(
        "Enter an https URL template containing {z}/{x}/{y}, e.g. https://tiles.example.org/{z}/{x}/{y}.png.",
      ),
    ).toBeVisible();
    try {
      // Nothing listens there: the tiles fail, the map still draws the network.
      await url.fill("https://127.0.0.1:9/{z}/{x}/{y}.png");
      await attribution.fill("© Test tiles");
      await save();
      await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();

      const outside: string[] = [];
      const tiles: string[] = [];
      page.on("request", (r) => {
        const u = new URL(r.url());
        if (u.hostname !== "localhost") outside.push(r.url());
        if (u.pathname.includes("/map-tiles/")) tiles.push(u.pathname);
      });
      await page.goto("/grid-monitoring?voltage=lv");
      await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
      await expect(page.getByTestId("grid-map")).toContainText("© Test tiles");
      await expect.poll(() => tiles.length).toBeGreaterThan(0);
      expect(tiles[0]).toMatch(/^\/csm\/customers\/[^/]+\/map-tiles\/\d+\/\d+\/\d+$/);
      expect(outside).toEqual([]);
      expect(await withMap<boolean>(page, `return !!map.getLayer("basemap-online")`)).toBe(true);
    } finally {
      await page.goto("/global-settings");
      await url.fill("");
      await attribution.fill("");
      await save();
      await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();
    }
  });
});
