/**
 * Global Settings end to end: a change survives a reload, bad values are refused with their
 * message, the logo upload is checked by content, the grid monitoring thresholds, and the
 * super-role warning for a customer with unset mandatory settings.
 */
import { expect, type Page, test } from "@playwright/test";
import { deflateSync } from "node:zlib";
import { ACCOUNTS, login, openUserMenu, shot } from "./helpers.ts";

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real RGB PNG: a blue square with a lighter band, so the preview shows something. */
function png(side: number): Buffer {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "ascii");
    Buffer.from(data).copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + side * 3) * side);
  for (let y = 0; y < side; y++) {
    const band = y > side / 3 && y < (2 * side) / 3;
    for (let x = 0; x < side; x++) {
      raw.set(band ? [0x5b, 0xa8, 0xf0] : [0x0b, 0x3d, 0x91], y * (1 + side * 3) + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ]);
}

async function openSettings(page: Page): Promise<void> {
  await page.goto("/global-settings");
  await expect(page.getByRole("heading", { level: 1, name: "Global Settings" })).toBeVisible();
  await expect(page.getByLabel("Company name")).toBeVisible();
}

test("an admin changes the date format and a threshold and sees them after a reload", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await openSettings(page);
  await page.getByLabel("Date format").selectOption("MMM DD, YYYY");
  await expect(page.getByText(/Example: March 14, 2026 16:09/)).toBeVisible();
  await page.getByLabel("Overvoltage (%)").fill("8");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();
  await shot(page, `global-settings`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.locator("main").evaluate((main) => main.scrollTo(0, main.scrollHeight));
  await shot(page, `global-settings-1920-bottom`);
  await page.reload();
  await expect(page.getByLabel("Date format")).toHaveValue("MMM DD, YYYY");
  await expect(page.getByLabel("Overvoltage (%)")).toHaveValue("8");
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  // The page itself writes dates in the customer's (new) format.
  await expect(page.getByText(/^Last change: [A-Z][a-z]+ \d{1,2}, \d{4} \d{2}:\d{2}$/))
    .toBeVisible();
});

test("bad values are refused with their message and nothing is saved", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await openSettings(page);
  await page.getByLabel("City").fill("x".repeat(251));
  await page.getByLabel("Default map zoom level").fill("30");
  await page.getByLabel("Authorized email domains").fill("demo ew");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saving failed. Try again!", { exact: true })).toBeVisible();
  await expect(page.getByText("This field can have maximum 250 characters.")).toBeVisible();
  await expect(page.getByText("Allowed values from 5 to 24")).toBeVisible();
  await expect(page.getByText("'demo' is not a valid domain name.")).toBeVisible();
  await shot(page, `global-settings-errors`);
  await page.getByRole("button", { name: "Discard changes" }).click();
  await page.reload();
  await expect(page.getByLabel("City")).toHaveValue("");
  await expect(page.getByLabel("Default map zoom level")).toHaveValue("12");
});

test("a logo that is no image is refused by its content; a PNG is shown in the header", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await openSettings(page);
  const chooser = page.getByLabel("Choose a logo file");
  await chooser.setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: Buffer.from("this is text, not a picture"),
  });
  await expect(page.getByText("The logo must be a JPEG or PNG image.")).toBeVisible();
  await chooser.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(512) });
  await expect(page.getByText("PNG, 512 x 512 pixels")).toBeVisible();
  await expect(page.getByRole("img", { name: "Logo of the customer" })).toBeVisible();
  const header = page.getByRole("banner").getByRole("img", { name: "Logo of EW Demo AG" });
  await expect(header).toBeVisible();
  await shot(page, `logo`);
  await page.reload();
  await expect(header).toBeVisible();
});

test("a grid monitoring admin changes the thresholds on their own page", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await page.goto("/grid-monitoring-settings");
  const overcurrent = page.getByLabel("Overcurrent (%)");
  await overcurrent.fill("250");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Allowed values from 50 to 200")).toBeVisible();
  await overcurrent.fill("120");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();
  await expect(page.getByText(/warning below 207.00 V and above/)).toBeVisible();
  await shot(page, `grid-monitoring-settings`);
  await page.reload();
  await expect(overcurrent).toHaveValue("120");
});

test("a super role on a customer with unset settings is sent to the module settings", async ({ page }) => {
  await login(page, ACCOUNTS.superAdmin);
  await openSettings(page);
  await openUserMenu(page);
  await page.getByRole("menuitemradio", { name: "Stadtwerk Beispiel" }).click();
  await expect(page.getByLabel("Company name")).toHaveValue("Stadtwerk Beispiel");
  // The name falls back to the placeholder a new customer has: a mandatory setting is unset.
  await page.getByLabel("Company name").fill("New customer");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();

  await page.goto("/grid-monitoring");
  const dialog = page.getByRole("dialog", { name: "Customer settings are incomplete" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Company name (missing or still 'New customer')");
  await shot(page, `super-warning`);
  await dialog.getByRole("button", { name: "Go to settings" }).click();
  await expect(page).toHaveURL(/\/global-settings#apps-settings$/);
  await expect(page.getByRole("heading", { name: "Module settings" })).toBeInViewport();
  await shot(page, `apps-settings`);
  await page.getByLabel("Company name").fill("Stadtwerk Beispiel");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Settings saved.", { exact: true })).toBeVisible();
  await page.goto("/grid-monitoring");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the country list is the current ISO 3166-1 list, in the user's language", async ({ page }) => {
  await login(page, ACCOUNTS.superAdmin);
  await openSettings(page);
  const codes = await page.getByLabel("Country").locator("option").evaluateAll((options) =>
    options.map((o) => (o as HTMLOptionElement).value).filter(Boolean)
  );
  expect(codes).toHaveLength(249);
  expect(codes).toContain("CH");
  expect(codes).toContain("SS");
  for (const gone of ["XA", "XB", "XK", "DD", "YU", "SU", "EU", "UN"]) {
    expect(codes).not.toContain(gone);
  }
  await expect(page.getByLabel("Country")).toHaveValue("CH");
  await expect(page.getByLabel("Country").locator("option:checked")).toHaveText(
    "Switzerland (CH)",
  );
});
