/**
 * Power-quality events end to end through the real login: a user opens /power-quality/events,
 * sees the simulator's events (the demo backfills two days) with the EN 50160 dip table, opens a
 * dip of a cell that answers recordings, sees its RMS trace, requests its recording (the demo
 * cell picks the command up at its next configuration poll and uploads it), downloads the
 * COMTRADE zip and finds it under #events-downloaded. Screenshots go to E2E_SCREENSHOTS.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

/** Nodes whose demo cells do not upload recordings (docs/cell-configuration.md). */
const NOT_ANSWERING = /CAB Seeblick 4|CAB Rebberg|CAB Waldrand/;

test("a user opens an event, requests its recording and downloads it", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page, ACCOUNTS.user, "/power-quality/events");
  await expect(page.getByRole("heading", { name: "Power Quality", level: 1 })).toBeVisible();

  // Dips of the two backfilled days arrive while the history fills in.
  const form = page.getByRole("form", { name: "Event filters" });
  await form.getByLabel("Type").selectOption("DIP");
  const rows = page.getByTestId("event-row");
  await expect(async () => {
    await form.getByRole("button", { name: "Apply" }).click();
    await expect(rows.filter({ hasNotText: NOT_ANSWERING }).first()).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  const dipTable = page.getByTestId("dip-table");
  await expect(dipTable).toBeVisible();
  await expect(dipTable.locator("td.font-semibold").first()).toBeVisible();
  await shot(page, "pq-events-list", { fullPage: true });

  const row = rows.filter({ hasNotText: NOT_ANSWERING }).first();
  await row.click();
  const detail = page.getByTestId("event-detail");
  await expect(detail).toBeVisible();
  await expect(detail.getByText("EN 50160 cell")).toBeVisible();
  await expect(detail.getByText(/Dips \(EN 50160 table 8\)/)).toBeVisible();
  await expect(detail.getByTestId("trace-chart").locator("canvas").first()).toBeVisible();

  await detail.getByRole("button", { name: "Request recording" }).click();
  await expect(detail.getByTestId("recording-status")).toHaveText(/Requested|Downloading/);
  // The demo cells poll their configuration every 10 s.
  await expect(detail.getByTestId("recording-status")).toHaveText("Downloaded", {
    timeout: 60_000,
  });
  await shot(page, "pq-events-detail", { fullPage: true });

  const download = page.waitForEvent("download");
  await detail.getByRole("button", { name: "COMTRADE (ASCII)" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);
  const csv = page.waitForEvent("download");
  await detail.getByRole("button", { name: "CSV", exact: true }).click();
  expect((await csv).suggestedFilename()).toMatch(/\.csv$/);

  await page.getByRole("tab", { name: "Downloaded recordings" }).click();
  await expect(page).toHaveURL(/#events-downloaded$/);
  const downloaded = page.getByTestId("recordings-list");
  await expect(downloaded.getByText("Downloaded")).toBeVisible();

  const gridAnswer = page.waitForResponse((r) => r.url().includes("/pqe/grid-events"));
  await page.getByRole("tab", { name: "Grid events" }).click();
  await expect(page).toHaveURL(/#grid-events$/);
  await expect(page.getByTestId("grid-events")).toBeVisible();
  // The newest grid event on the map: each node that saw it, coloured by its depth.
  const grid = await (await gridAnswer).json() as {
    grid_events: { start: string; nodes: { key: string; depth_pct: number | null }[] }[];
  };
  if (grid.grid_events.length === 0) {
    await expect(page.getByText("No grid events in this period.")).toBeVisible();
  } else {
    const newest = grid.grid_events[0]!;
    await expect(page.getByTestId("grid-event-map")).toHaveAttribute("data-event", newest.start);
    const map = page.getByTestId("grid-map");
    await expect(map).toHaveAttribute("data-ready", "true");
    await expect(map).toHaveAttribute("data-points", String(newest.nodes.length));
    const drawn = await map.locator(".maplibregl-map").evaluate((el) =>
      ((el as unknown as { gridMap: { getSource(id: string): { getData(): Promise<unknown> } } })
        .gridMap.getSource("grid-points").getData() as Promise<
          { features: { properties: { id: string; state: string; name: string } }[] }
        >).then((d) => d.features.map((f) => f.properties))
    );
    const depthState = (d: number | null) =>
      d === null ? "unknown" : d >= 40 ? "critical" : "warning";
    expect(drawn.map((p) => [p.id, p.state]).sort()).toEqual(
      newest.nodes.map((n) => [n.key, depthState(n.depth_pct)]).sort(),
    );
    for (const p of drawn) {
      const depth = newest.nodes.find((n) => n.key === p.id)!.depth_pct;
      if (depth !== null) expect(p.name).toMatch(/: \d+([.,]\d)? %$/);
    }
    await shot(page, "pq-grid-events-map", { fullPage: true });
  }

  await page.getByRole("tab", { name: "Magnitude-duration" }).click();
  await expect(page.getByTestId("magnitude-plot").locator("circle").first()).toBeVisible();
  await shot(page, "pq-events-plot", { fullPage: true });
});
