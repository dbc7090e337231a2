/**
 * The SCADA connector end to end through the real login: an administrator creates a profile
 * (the spec 5 messages first: name, IP address, TCP port, ASDU), is refused a reused ASDU by
 * the server, generates the points in feeder order, moves one and saves the order.
 */
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";

test("an administrator sets up a SCADA profile and its points", async ({ page }) => {
  test.setTimeout(120_000);
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  const asdu = String(100 + Math.floor(Math.random() * 60_000));
  await login(page, ACCOUNTS.admin, "/scada-connector");
  await expect(page.getByRole("heading", { name: "SCADA Connector", level: 1 })).toBeVisible();
  await expect(page.getByTestId("scada-state")).toContainText("Connector state");

  await page.getByRole("button", { name: "New profile" }).click();
  const dialog = page.getByRole("dialog", { name: "New SCADA profile" });
  await dialog.getByLabel("Name").fill("CC");
  await dialog.getByLabel("Master's IP address").fill("10.0.0.300");
  await dialog.getByLabel("TCP port").fill("80");
  await dialog.getByLabel("ASDU (common address)").fill("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Name must have minimum 3 characters.")).toBeVisible();
  await expect(dialog.getByText("The IP address is not valid")).toBeVisible();
  await expect(dialog.getByText("The TCP port must be between 1024 and 65535.")).toBeVisible();
  await expect(dialog.getByText("Is required")).toBeVisible();
  await dialog.getByLabel("t2").fill("15");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("t2 must be shorter than t1.")).toBeVisible();

  await dialog.getByLabel("Name").fill("Control centre north");
  await dialog.getByLabel("Master's IP address").fill("10.0.0.5");
  await dialog.getByLabel("TCP port").fill(port);
  await dialog.getByLabel("ASDU (common address)").fill(asdu);
  await dialog.getByLabel("t2").fill("10");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const profiles = page.getByTestId("scada-profiles");
  await expect(profiles.getByRole("row", { name: /Control centre north/ })).toContainText(asdu);

  // The same ASDU for a second master: the server refuses it on its field.
  await page.getByRole("button", { name: "New profile" }).click();
  const second = page.getByRole("dialog", { name: "New SCADA profile" });
  await second.getByLabel("Name").fill("Control centre south");
  await second.getByLabel("Master's IP address").fill("10.0.0.6");
  await second.getByLabel("TCP port").fill(String(Number(port) + 1));
  await second.getByLabel("ASDU (common address)").fill(asdu);
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("This ASDU is already in use and cannot be reassigned."))
    .toBeVisible();
  await second.getByRole("button", { name: "Cancel" }).click();
  await expect(profiles.getByRole("row")).toHaveCount(2); // header and the one profile

  // Points: generated in feeder order, one moved down, the order saved.
  await profiles.getByRole("button", { name: "Control centre north" }).click();
  await expect(page.getByText("No points yet")).toBeVisible();
  await page.getByRole("button", { name: "Generate" }).click();
  const points = page.getByTestId("scada-points");
  await expect(points.getByRole("row").nth(1)).toContainText("Voltage U L1");
  await expect(points.getByRole("row").nth(2)).toContainText("Voltage U L2");
  expect(await points.getByRole("row").count()).toBeGreaterThan(20);
  await points.getByRole("row").nth(1).getByRole("button", { name: "Move down" }).click();
  await expect(points.getByRole("row").nth(1)).toContainText("Voltage U L2");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save the order" }).click();
  await expect(page.getByText("The points were saved.").first()).toBeVisible();
  await expect(points.getByRole("row").nth(1)).toContainText("Voltage U L2");
  await expect(points.getByRole("row").nth(1).getByRole("cell").first()).toHaveText("2");
});
