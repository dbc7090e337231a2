/**
 * The SCADA connector end to end through the real login: an administrator creates a profile
 * (the spec 5 messages first: name, IP address, TCP port, ASDU), is refused a reused ASDU by
 * the server, generates the points in feeder order (with the frequency added), reorders them
 * with a button, by dragging and from the keyboard, saves the order and downloads the PDF.
 */
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";

test("an administrator sets up a SCADA profile and its points", async ({ page }) => {
  test.setTimeout(180_000);
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
  await dialog.getByLabel("P (kW)").fill("-1");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(
    dialog.getByText("The deadband must be between 0 and 1,000,000 (in the value's unit)."),
  ).toBeVisible();
  await dialog.getByLabel("P (kW)").fill("0.5");
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

  // Points: generated in feeder order with the frequency added, reordered with a button, by
  // dragging and from the keyboard, the order saved and still there after a reload.
  await profiles.getByRole("button", { name: "Control centre north" }).click();
  await expect(page.getByText("No points yet")).toBeVisible();
  await page.getByRole("checkbox", { name: "frequency" }).check();
  await page.getByRole("button", { name: "Generate" }).click();
  const points = page.getByTestId("scada-points");
  const row = (k: number) => points.getByRole("row").nth(k);
  const ioas = async (n: number) =>
    await Promise.all(
      Array.from({ length: n }, (_, k) => row(k + 1).getByRole("cell").nth(1).innerText()),
    );
  await expect(row(1)).toContainText("Voltage U L1", { timeout: 30_000 });
  await expect(row(2)).toContainText("Voltage U L2");
  await expect(row(4)).toContainText("Frequency f");
  expect(await points.getByRole("row").count()).toBeGreaterThan(20);
  await row(1).getByRole("button", { name: "Move down" }).click();
  await expect(row(1)).toContainText("Voltage U L2");
  await expect(page.getByText("Unsaved changes")).toBeVisible();

  // Dragged: the frequency (4th) onto the first row.
  await row(4).dragTo(row(1));
  await expect(row(1)).toContainText("Frequency f");
  expect(await ioas(4)).toEqual(["4", "2", "1", "3"]);

  // From the keyboard: the grip of U L3 (4th) picked up, two up, dropped.
  const grip = row(4).getByRole("button", { name: "Move the point at address 3" });
  await grip.focus();
  await page.keyboard.press("Space");
  await expect(grip).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  const announcement = page.getByTestId("scada-points-announcement");
  await expect(announcement).toContainText("Address 3: position 2 of");
  await page.keyboard.press("Space");
  await expect(announcement).toHaveText("Address 3 dropped at position 2.");
  expect(await ioas(4)).toEqual(["4", "3", "2", "1"]);
  // Escape puts a picked-up point back.
  await expect(row(2).getByRole("button", { name: "Move the point at address 3" })).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Escape");
  expect(await ioas(4)).toEqual(["4", "3", "2", "1"]);

  await page.getByRole("button", { name: "Save the order" }).click();
  await expect(page.getByText("The points were saved.").first()).toBeVisible();
  await page.reload();
  await profiles.getByRole("button", { name: "Control centre north" }).click();
  // The list of a few hundred points loads again (slow on a loaded machine).
  await expect(row(1)).toContainText("Frequency f", { timeout: 30_000 });
  expect(await ioas(4)).toEqual(["4", "3", "2", "1"]);

  // The point list as the SCADA engineer's PDF (the saved order).
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Point list PDF" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("scada-points-Control_centre_north.pdf");
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
});

test("an administrator adds P and the frequency to a point list without regenerating it", async ({ page }) => {
  test.setTimeout(180_000);
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  const asdu = String(100 + Math.floor(Math.random() * 60_000));
  await login(page, ACCOUNTS.admin, "/scada-connector");
  await page.getByRole("button", { name: "New profile" }).click();
  const dialog = page.getByRole("dialog", { name: "New SCADA profile" });
  await dialog.getByLabel("Name").fill(`Add values ${asdu}`);
  await dialog.getByLabel("Master's IP address").fill("10.0.1.5");
  await dialog.getByLabel("TCP port").fill(port);
  await dialog.getByLabel("ASDU (common address)").fill(asdu);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const profiles = page.getByTestId("scada-profiles");
  await profiles.getByRole("button", { name: `Add values ${asdu}` }).click();
  await page.getByRole("button", { name: "Generate" }).click();
  const points = page.getByTestId("scada-points");
  const row = (k: number) => points.getByRole("row").nth(k);
  await expect(row(1)).toContainText("Voltage U L1", { timeout: 30_000 });
  const before = await points.getByRole("row").count() - 1;
  // The generated list holds addresses 1..n; the user switches the first point off first.
  await row(1).getByRole("checkbox").uncheck();
  await page.getByRole("button", { name: "Save the order" }).click();
  await expect(page.getByText("The points were saved.").first()).toBeVisible();

  await page.getByRole("button", { name: "Add values…" }).click();
  const add = page.getByRole("dialog", { name: "Add values to the point list" });
  await add.getByRole("radio", { name: /Chosen nodes/ }).check();
  await add.getByRole("button", { name: "Add" }).click();
  await expect(add.getByRole("alert")).toHaveCount(2); // no value kind, no node
  await expect(add.getByText("Is required").first()).toBeVisible();

  await add.getByRole("checkbox", { name: "Active power P per phase" }).check();
  await add.getByRole("checkbox", { name: "Frequency f" }).check();
  const firstNode = add.getByRole("listitem").first().getByRole("checkbox").first();
  await firstNode.check();
  await expect(add.getByRole("status")).toContainText(
    new RegExp(`new points, addresses ${before + 1} to \\d+\\.`),
  );
  const preview = await add.getByRole("status").innerText();
  const added = Number(/^(\d+) new points/.exec(preview)![1]);
  expect(added).toBeGreaterThanOrEqual(4);
  await add.getByRole("button", { name: "Add" }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText(`${added} points added.`).first()).toBeVisible();
  await expect(points.getByRole("row")).toHaveCount(before + added + 1, { timeout: 30_000 });
  // The existing points untouched (the first still off, address 1), the new ones after the first
  // node's points on the next free addresses.
  await expect(row(1).getByRole("checkbox")).not.toBeChecked();
  await expect(row(1).getByRole("cell").nth(1)).toHaveText("1");
  await expect(points.getByRole("row", { name: /Active power P L1/ }).first()).toContainText(
    String(before + 1),
  );
  await expect(points.getByRole("row", { name: /Frequency f/ })).toHaveCount(1);

  // The same values again: nothing to add.
  await page.getByRole("button", { name: "Add values…" }).click();
  await add.getByRole("checkbox", { name: "Frequency f" }).check();
  await add.getByRole("radio", { name: /Chosen nodes/ }).check();
  await add.getByRole("listitem").first().getByRole("checkbox").first().check();
  await expect(add.getByRole("status")).toHaveText(
    "The list holds these values already: nothing to add.",
  );
  await add.getByRole("button", { name: "Cancel" }).click();
});
