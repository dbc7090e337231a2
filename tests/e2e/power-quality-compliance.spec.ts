/**
 * The grid compliance through the real login: the "New report" button belongs to the Reports
 * tab only; the list is filtered and paged by the server (the verdict goes with the request, the
 * pager counts what the server says); the map shows every node of the week coloured by its
 * verdict (read through the map's test hook: the drawn source's data against the server's
 * answer), and a click on a node opens its report of that week.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

type MapNode = {
  node_id: string;
  passed: boolean | null;
  latitude: number;
  longitude: number;
  report_key: string | null;
};

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

const stateOf = (passed: boolean | null) =>
  passed === true ? "ok" : passed === false ? "critical" : "unknown";

test("grid compliance: server paging and filter, the map coloured by verdict, a click to the report", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1500, height: 1000 });
  await login(page, ACCOUNTS.admin, "/power-quality/reports#reports");
  await expect(page.getByTestId("pq-create")).toBeVisible();
  await page.getByTestId("pq-tab-compliance").click();
  await expect(page).toHaveURL(/#compliance$/);
  await expect(page.getByTestId("pq-create")).toHaveCount(0);
  await page.getByTestId("pq-tab-auto").click();
  await expect(page.getByTestId("pq-create")).toHaveCount(0);
  await page.getByTestId("pq-tab-compliance").click();

  const compliance = page.getByTestId("pq-compliance");
  await compliance.getByRole("button", { name: "Evaluate again" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("pq-compliance-list")).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  const list = page.getByTestId("pq-compliance-list");
  const rows = list.locator("tbody tr");
  const all = await rows.count();
  expect(all).toBeGreaterThan(0);
  await expect(compliance.getByRole("navigation", { name: "Pages" })).toContainText(
    `1–${all} of ${all}`,
  );

  // The verdict filter is the server's: the request carries it, the answer's rows all have it.
  const asked = page.waitForRequest((r) =>
    r.url().includes("/pqm/compliance?") && r.url().includes("verdict=NONE") &&
    r.url().includes("page=0")
  );
  await compliance.getByLabel("Verdict").click();
  await page.getByRole("option", { name: "Not evaluable" }).click();
  const answer = await (await (await asked).response())!.json() as {
    total: number;
    not_evaluable: number;
    nodes: unknown[];
  };
  expect(answer.total).toBe(answer.not_evaluable);
  await expect(rows).toHaveCount(answer.nodes.length);
  for (const text of await rows.locator("td:nth-child(3)").allInnerTexts()) {
    expect(text).toContain("Not evaluable");
  }
  await compliance.getByLabel("Verdict").click();
  await page.getByRole("option", { name: "All nodes" }).click();
  await expect(rows).toHaveCount(all);

  // The map: every node of the week, coloured by its verdict.
  const mapAnswer = page.waitForResponse((r) => r.url().includes("/pqm/compliance/map"));
  await compliance.getByRole("radio", { name: "Map" }).click();
  const week = await (await mapAnswer).json() as { nodes: MapNode[] };
  expect(week.nodes.length).toBe(all);
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("grid-map")).toHaveAttribute("data-points", String(all));
  const drawn = await withMap<{ id: string; state: string }[]>(
    page,
    `return map.getSource("grid-points").getData().then((d) =>
      d.features.map((f) => ({ id: f.properties.id, state: f.properties.state })))`,
  );
  expect(drawn.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    week.nodes.map((n) => ({ id: n.node_id, state: stateOf(n.passed) }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  );
  await expect(page.getByTestId("grid-map")).toContainText("Not evaluable");
  await shot(page, "pq-compliance-map", { fullPage: true });

  // One click on a node: its report of the week opens (made when there is none yet).
  const node = week.nodes[0]!;
  const at = await withMap<{ x: number; y: number }>(
    page,
    `return new Promise((resolve) => {
      map.once("idle", () => {
        const p = map.project([arg.lng, arg.lat]);
        resolve({ x: p.x, y: p.y });
      });
      map.jumpTo({ center: [arg.lng, arg.lat], zoom: 19 });
      map.triggerRepaint();
    })`,
    { lng: node.longitude, lat: node.latitude },
  );
  const box = (await page.getByTestId("grid-map").locator("canvas").boundingBox())!;
  const made = page.waitForRequest((r) =>
    r.method() === "POST" && r.url().endsWith("/pqm/reports")
  );
  await page.mouse.click(box.x + at.x, box.y + at.y);
  if (node.report_key === null) {
    // No report of that week yet: the click asks for one, of that node over that week.
    const body = (await made).postDataJSON() as { node: string; start: string; period: string };
    expect([body.node, body.period]).toEqual([node.node_id, "P7D"]);
    const response = (await (await made).response())!;
    if (response.status() === 202) {
      await expect(page.getByTestId("pq-detail")).toBeVisible({ timeout: 15_000 });
    } else {
      // The week can predate the demo cells' configuration (a fresh platform): 509, shown.
      const refusal = await response.json() as { code: number };
      expect(refusal.code).toBe(509);
      await expect(compliance.getByText("Code 509")).toBeVisible();
    }
  } else {
    await expect(page.getByTestId("pq-detail")).toBeVisible({ timeout: 15_000 });
  }
  await shot(page, "pq-compliance-map-report", { fullPage: true });
});
