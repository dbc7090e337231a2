/**
 * The notification centre as a user meets it: 'Notifications are not activated' until enabled,
 * a produced notification arriving live in the bell (STOMP), marking it read (with the error
 * toast when the server fails), deleting, and the notification settings section.
 * Notifications are produced through the E2E_HOOKS-only route POST /nsm/e2e/cells-to-configure,
 * which publishes a grid.cellsToConfigure event for the caller's customer.
 */
import { expect, type Page, test } from "@playwright/test";
import { ACCOUNTS, login, shot } from "./helpers.ts";

/** Calls the API from the page with the session's access token (as the web app does). */
async function callApi(page: Page, method: string, path: string, body?: unknown) {
  return await page.evaluate(async ({ method, path, body }) => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith("oidc.user:"));
    const user = JSON.parse(sessionStorage.getItem(key ?? "") ?? "{}") as {
      access_token?: string;
      profile?: { sub?: string };
    };
    const response = await fetch(path, {
      method,
      headers: {
        Authorization: `Bearer ${user.access_token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: response.status, sub: user.profile?.sub ?? "" };
  }, { method, path, body });
}

async function userId(page: Page): Promise<string> {
  const { sub } = await callApi(page, "GET", "/health");
  return sub.split("|").pop()!;
}

test("a produced notification appears live in the bell and is marked read", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  const bell = page.getByRole("button", { name: /^Notifications/ });

  await bell.click();
  const dropdown = page.getByRole("dialog");
  await expect(dropdown.getByText("Notifications are not activated")).toBeVisible();
  await expect(dropdown.getByRole("link", { name: "Open the notification settings" }))
    .toHaveAttribute("href", "/user-settings#notification-settings");
  await shot(page, `bell-not-activated`);
  await page.keyboard.press("Escape");

  // Enable the infrastructure setup notifications as the settings section saves them.
  const id = await userId(page);
  const saved = await callApi(page, "PATCH", `/usm/users/current/${id}`, {
    notification: {
      apps: { "hes:infrastructure-setup": { web: true, email: false } },
      email: false,
    },
  });
  expect(saved.status).toBe(200);
  await page.reload();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await bell.click();
  await expect(dropdown.getByText("No Notifications")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(bell).toHaveAccessibleName("Notifications");

  // Produced while the page is open: it must arrive over the websocket, without a reload.
  expect((await callApi(page, "POST", "/nsm/e2e/cells-to-configure", { count: 3 })).status)
    .toBe(202);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(bell).toContainText("1");
  await bell.click();
  const row = dropdown.getByRole("button", { name: /^3 cells are waiting for configuration/ });
  await expect(row).toBeVisible();
  await expect(dropdown.getByText(/Infrastructure Setup · (now|\d+ seconds? ago)/)).toBeVisible();
  await shot(page, `bell-live`);

  // The server fails once: the error toast appears at the bottom left, nothing changes.
  await page.route(
    "**/nsm/notifications/*",
    (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({ status: 500, body: '{"key":"common.internal","params":{}}' })
        : route.continue(),
  );
  await row.click();
  const toast = page.getByText("Unable to mark as read. Try again!", { exact: true });
  await expect(toast).toBeVisible();
  const box = await toast.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.x).toBeLessThan(viewport.width / 2);
  expect(box!.y).toBeGreaterThan(viewport.height / 2);
  await shot(page, `bell-toast`);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await page.unroute("**/nsm/notifications/*");

  // Now for real: the row reads as read and the badge disappears.
  await row.click();
  await expect(bell).toHaveAccessibleName("Notifications");
  await expect(
    dropdown.getByRole("button", { name: "3 cells are waiting for configuration", exact: true }),
  ).toBeVisible();
  await expect(dropdown.getByLabel("Unread")).toHaveCount(0);
  await shot(page, `bell-read`);

  // More arrive live; 'Mark all as read', then one deletion and 'Delete All'.
  for (const count of [1, 5]) {
    await callApi(page, "POST", "/nsm/e2e/cells-to-configure", { count });
  }
  await expect(dropdown.getByText("5 cells are waiting for configuration")).toBeVisible();
  await expect(dropdown.getByText("1 cell is waiting for configuration")).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await dropdown.getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell).toHaveAccessibleName("Notifications");
  await dropdown.getByRole("button", { name: "Delete: 1 cell is waiting for configuration" })
    .click();
  await expect(dropdown.getByText("1 cell is waiting for configuration")).toHaveCount(0);
  await expect(dropdown.getByRole("listitem")).toHaveCount(2);
  await dropdown.getByRole("button", { name: "Delete All" }).click();
  await expect(dropdown.getByText("No Notifications")).toBeVisible();
});

test("the bell loads further pages while scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 480 });
  await login(page, ACCOUNTS.admin);
  const id = await userId(page);
  await callApi(page, "DELETE", `/nsm/notifications/users/${id}`);
  await callApi(page, "PATCH", `/usm/users/current/${id}`, {
    notification: { apps: { "hes:infrastructure-setup": true }, email: false },
  });
  for (let count = 1; count <= 14; count++) {
    await callApi(page, "POST", "/nsm/e2e/cells-to-configure", { count });
  }
  await page.reload();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications, 14 unread");
  await expect(bell).toContainText("9+");
  await bell.click();
  const list = page.getByRole("dialog").getByRole("list", { name: "Notifications" });
  // Window 480 px: list height 300 px, pages of 300 / 50 + 1 = 7 rows.
  await expect(list.getByRole("listitem")).toHaveCount(7);
  await shot(page, `bell-page-1`);
  await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(list.getByRole("listitem")).toHaveCount(14);
  await expect(list.getByText("1 cell is waiting for configuration")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Delete All" }).click();
  await expect(page.getByRole("dialog").getByText("No Notifications")).toBeVisible();
});

test("notification settings switch the bell's modules and survive a reload", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/user-settings#notification-settings");
  const section = page.locator("#notification-settings");
  const web = section.getByRole("switch", { name: "Notification centre: Infrastructure Setup" });
  await expect(web).toBeVisible();
  await expect(section.getByRole("switch", { name: "E-mail notifications" })).toBeDisabled();
  await expect(section.getByText(/available once your e-mail address .* is validated/))
    .toBeVisible();
  const wasOn = (await web.getAttribute("aria-checked")) === "true";
  await web.click();
  await section.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Notification settings saved.", { exact: true })).toBeVisible();
  await shot(section, `settings`);
  await page.reload();
  await expect(
    page.locator("#notification-settings").getByRole("switch", {
      name: "Notification centre: Infrastructure Setup",
    }),
  ).toHaveAttribute("aria-checked", wasOn ? "false" : "true");
});

test("an alarm notification is shown whole and a click opens its node", async ({ page }) => {
  await login(page, ACCOUNTS.user, "/grid-monitoring");
  const id = await userId(page);
  await callApi(page, "DELETE", `/nsm/notifications/users/${id}`);
  await callApi(page, "PATCH", `/usm/users/current/${id}`, {
    notification: { apps: { "app:grid-monitoring": { web: true, email: false } }, email: false },
  });
  const row = page.locator("button[data-node-id]").filter({ hasText: "CAB Waldrand" });
  const nodeId = (await row.getAttribute("data-node-id"))!;
  // A long name: the entry wraps instead of being cut off.
  const longName = "CAB Waldrand behind the gymnasium at the far end of the Waldrandstrasse";
  expect(
    (await callApi(page, "POST", "/nsm/e2e/node-state-changed", {
      node_id: nodeId,
      node_name: longName,
      ew_name: "CAB Waldrand",
      state: "INTERRUPTION",
    })).status,
  ).toBe(202);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName(/Notifications, \d+ unread/);
  await bell.click();
  const entry = page.getByRole("dialog").getByTestId("notification").filter({
    hasText: longName,
  });
  await expect(entry).toBeVisible();
  const text = entry.getByText(`Interruption at ${longName}`);
  await expect(text).toBeVisible();
  const clipped = await text.evaluate((el) =>
    el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
  );
  expect(clipped).toBe(false);
  await shot(page, "bell-alarm");
  await page.goto("/user-settings");
  await bell.click();
  await entry.getByRole("button").first().click();
  await expect(page).toHaveURL(new RegExp(`/grid-monitoring\\?.*node=${nodeId}`));
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("node-panel").getByRole("heading", { name: "CAB Waldrand" }))
    .toBeVisible();
});
