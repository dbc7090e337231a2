/**
 * Cell onboarding in "Cells in stock": an administrator registers a cell by serial number, sees
 * its credential once (copy, provisioning file, "shown once"), and the credential from the screen
 * is accepted by the ingest endpoint; rotating it in the cell detail refuses the old one (401),
 * revoking it (serial number typed) refuses every one. A CSV import lists its problems by line,
 * then registers every cell of the corrected file.
 */
import { expect, type Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { ACCOUNTS, login, shot } from "./helpers.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** A batch of one 20-s window, as a cell sends it with `credential`. */
async function send(page: Page, credential: string): Promise<number> {
  const now = Date.now();
  const ts = new Date(now - (now % 20_000) - 20_000).toISOString();
  const res = await page.request.post("/ingest/v1/batches", {
    headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
    data: {
      batch_id: crypto.randomUUID(),
      measurements: [{ ts, feeder: 1, phase: "L1", u: 231, i: 12 }],
    },
  });
  return res.status();
}

/** The one-time dialog: reads the credential, downloads the file, confirms and closes. */
async function takeCredential(page: Page, serial: string): Promise<string> {
  const dialog = page.getByRole("dialog", { name: `Credential of cell ${serial}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("credential-once")).toContainText(
    "Shown only now: GridWatch keeps only a hash of the credential and cannot show it again.",
  );
  const credential = await dialog.getByRole("textbox", { name: "Credential" }).inputValue();
  expect(credential).toMatch(/^C[A-Z0-9-]+\.[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(credential);

  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download provisioning file" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`gridwatch-cell-${serial}.json`);
  const provisioning = JSON.parse(readFileSync((await file.path())!, "utf8"));
  expect(provisioning.credential).toBe(credential);
  expect(provisioning.ingest_url).toBe(new URL("/ingest/v1/batches", page.url()).href);

  // Closing needs the confirmation that the credential is stored; Escape does not close it.
  await shot(page, "cell-credential-dialog");
  const done = dialog.getByRole("button", { name: "Done" });
  await expect(done).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("I have stored the credential safely").check();
  await done.click();
  await expect(dialog).toBeHidden();
  return credential;
}

test("an admin registers a cell, sees its credential once, rotates and revokes it", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#cells");
  const stock = page.getByRole("region", { name: "Cells in stock" });
  await stock.getByRole("button", { name: "Register cell" }).click();

  const form = page.getByRole("dialog", { name: "Register a cell" });
  const serialField = form.getByRole("textbox", { name: "Serial number" });
  await serialField.fill("GW/E2E");
  await serialField.blur();
  await expect(form.getByRole("alert")).toHaveText(
    "Use letters, digits and - _ . only, beginning and ending with a letter or digit.",
  );
  await serialField.fill("gw-e2e-0001");
  await shot(page, "cell-register-dialog");
  await form.getByRole("button", { name: "Register" }).click();

  const credential = await takeCredential(page, "GW-E2E-0001");
  const detail = page.getByRole("region", { name: "Cell GW-E2E-0001" });
  await expect(detail.getByTestId("cell-credential")).toContainText("active, issued");
  await expect(stock.getByText("GW-E2E-0001")).toBeVisible();
  expect(await send(page, credential)).toBe(200);

  // The same serial number again: refused beside the field.
  await stock.getByRole("button", { name: "Register cell" }).click();
  await form.getByRole("textbox", { name: "Serial number" }).fill("GW-E2E-0001");
  await form.getByRole("button", { name: "Register" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    "A cell with serial number GW-E2E-0001 is already registered.",
  );
  await form.getByRole("button", { name: "Cancel" }).click();

  // Rotation: the spec's confirmation, a new credential shown once, the old one refused.
  await detail.getByRole("button", { name: "Rotate credential" }).click();
  const confirm = page.getByRole("alertdialog", {
    name: "Rotate the credential of cell GW-E2E-0001?",
  });
  await expect(confirm).toContainText("This action is irrecoverable");
  await confirm.getByRole("button", { name: "Yes, rotate it" }).click();
  const rotated = await takeCredential(page, "GW-E2E-0001");
  expect(rotated).not.toBe(credential);
  expect(await send(page, credential)).toBe(401);
  expect(await send(page, rotated)).toBe(200);

  // Revocation: the serial number must be typed before confirming.
  await detail.getByRole("button", { name: "Revoke credential" }).click();
  const revoke = page.getByRole("alertdialog", {
    name: "Revoke the credential of cell GW-E2E-0001?",
  });
  const yes = revoke.getByRole("button", { name: "Yes, revoke it" });
  await expect(yes).toBeDisabled();
  await revoke.getByRole("textbox", { name: "Type the serial number GW-E2E-0001 to confirm" })
    .fill("gw-e2e-0001");
  await shot(page, "cell-revoke-confirm");
  await yes.click();
  await expect(detail.getByTestId("cell-credential")).toContainText("revoked");
  await shot(page, "cell-revoked-detail");
  expect(await send(page, rotated)).toBe(401);
  await expect(detail.getByRole("button", { name: "Issue new credential" })).toBeVisible();
});

test("an admin imports a CSV: problems by line first, then every cell at once", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#cells");
  const stock = page.getByRole("region", { name: "Cells in stock" });
  await stock.getByRole("button", { name: "Import CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import cells from a CSV file" });
  const file = (text: string) => ({
    name: "cells.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(text),
  });
  await dialog.getByLabel("CSV file").setInputFiles(file("serial_number\nGW-E2E-0101\nG/2\n"));
  await expect(dialog.getByTestId("import-problems")).toContainText(
    "Line 3: Use letters, digits and - _ . only",
  );
  await expect(dialog.getByRole("button", { name: "Register", exact: true })).toBeDisabled();
  await shot(page, "cell-import-problems");

  await dialog.getByLabel("CSV file").setInputFiles(
    file("serial_number;device_model\nGW-E2E-0101\nGW-E2E-0102;DTVI\n"),
  );
  await expect(dialog.getByText("2 cells are ready to be registered.")).toBeVisible();
  await dialog.getByRole("button", { name: "Register 2 cells" }).click();

  const shown = page.getByRole("dialog", { name: "Credentials of 2 cells" });
  await expect(shown.getByRole("cell", { name: "GW-E2E-0102" })).toBeVisible();
  const download = page.waitForEvent("download");
  await shown.getByRole("button", { name: "Download provisioning file" }).click();
  const cells = JSON.parse(readFileSync((await (await download).path())!, "utf8")).cells as {
    serial_number: string;
    device_model: string;
    credential: string;
  }[];
  expect(cells.map((c) => [c.serial_number, c.device_model])).toEqual([
    ["GW-E2E-0101", "GW4"],
    ["GW-E2E-0102", "DTVI"],
  ]);
  for (const cell of cells) expect(await send(page, cell.credential)).toBe(200);
  await shown.getByLabel("I have stored the credential safely").check();
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(stock.getByText("GW-E2E-0102")).toBeVisible();
});
