/**
 * API clients end to end through the real login: an API clients admin creates a client on
 * /api-settings (the secret shown once), then /api-doc renders external_v1 with every request
 * to another origin blocked (none is attempted), gets a token with the pasted client ID and
 * secret, and try-out calls of gsm and pq answer 200; the call shows in the audit log.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

test("a client created on /api-settings gets a token and calls a route from /api-doc offline", async ({ page }) => {
  test.setTimeout(120_000);
  const foreign: string[] = [];
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "localhost" || url.hostname === "127.0.0.1") return route.continue();
    foreign.push(url.href);
    return route.abort();
  });
  await login(page, ACCOUNTS.admin, "/api-settings");
  await expect(page.getByRole("heading", { name: "API Clients", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New API client" }).click();
  const create = page.getByRole("dialog", { name: "New API client" });
  await create.getByRole("button", { name: "Create" }).click();
  await expect(create.getByText("Name must have minimum 3 characters.")).toBeVisible();
  await create.getByLabel("Name").fill("E2E reader");
  await create.getByRole("radio", { name: "Write" }).click();
  await create.getByRole("button", { name: "Create" }).click();

  const shown = page.getByRole("dialog", { name: "Secret of E2E reader" });
  await expect(shown).toBeVisible();
  await shot(page, "api-settings-secret");
  const clientId = (await shown.getByTestId("client-id").textContent())!.trim();
  const secret = (await shown.getByTestId("client-secret").textContent())!.trim();
  expect(clientId).toMatch(/^gwc_/);
  expect(secret).toMatch(/^gws_/);
  await shown.getByRole("button", { name: "I have stored it" }).click();
  const row = page.getByTestId("api-client-row").filter({ hasText: "E2E reader" });
  await expect(row).toContainText("Write");
  await expect(page.getByText(secret)).toHaveCount(0);

  await page.goto("/api-doc");
  await expect(page.getByRole("heading", { name: "REST API Documentation", level: 1 }))
    .toBeVisible();
  await expect(page.getByTestId("api-version")).toHaveText("external_v1");
  for (const api of ["gsm", "dm", "pq", "fm"]) {
    await expect(page.getByRole("heading", { name: new RegExp(`^${api}`), level: 2 }))
      .toBeVisible();
  }
  await page.getByLabel("Client ID").fill(clientId);
  await page.getByLabel("Client secret").fill(secret);
  await page.getByRole("button", { name: "Get token" }).click();
  await expect(page.getByTestId("api-token-ready")).toContainText("api:read:grid-elements");
  const operation = page.locator('[data-operation="get /external/v1/gsm/station-groups"]');
  await operation.getByRole("button", { name: /station-groups/ }).click();
  await operation.getByRole("button", { name: "Try it out" }).click();
  await expect(operation.getByTestId("api-answer-status")).toHaveText("Status 200");
  await expect(operation.locator("pre")).toContainText("mv_feeder_groups");
  // pq: the reports and the events of the customer, paged as every list of external_v1.
  for (const path of ["/pq/reports", "/pq/events"]) {
    const pq = page.locator(`[data-operation="get /external/v1${path}"]`);
    await pq.getByRole("button", { name: new RegExp(path) }).click();
    await expect(pq.getByText("api:read:data")).toBeVisible();
    await pq.getByLabel(/^page_size/).fill("5");
    await pq.getByRole("button", { name: "Try it out" }).click();
    await expect(pq.getByTestId("api-answer-status")).toHaveText("Status 200");
    await expect(pq.locator("pre")).toContainText('"page_size": 5');
    await expect(pq.locator("pre")).toContainText('"items"');
  }
  await shot(page, "api-doc", { fullPage: true });

  await page.goto("/api-settings");
  await expect(page.getByTestId("api-audit-row").filter({ hasText: "station-groups" }).first())
    .toContainText("200");
  await shot(page, "api-settings", { fullPage: true });
  expect(foreign).toEqual([]);
});
