/**
 * What the issue of the control room found untidy, checked as a user would see it: texts that
 * stayed English (the map's zoom buttons, the toast region "Notifications (F8)"), search
 * placeholders cut off in German and Ukrainian, the cells search touching the tabs, the profile
 * card's empty block, and IO monitoring's wrapped timestamps.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { ACCOUNTS, login } from "./helpers.ts";

test.use({
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  },
});

const LANGUAGE_NAMES = { en: "English", fr: "Français", de: "Deutsch", uk: "Українська" };

async function switchLanguage(page: Page, lang: keyof typeof LANGUAGE_NAMES) {
  await page.getByRole("button", { name: /Anna Admin/ }).click();
  await page.getByRole("menuitemradio", { name: LANGUAGE_NAMES[lang] }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
}

/** True when the input's placeholder fits its text box (measured with the input's font). */
async function placeholderFits(input: Locator): Promise<boolean> {
  return await input.evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(el.placeholder).width <= room;
  });
}

test("the map's buttons and the message region speak the user's language", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/grid-monitoring");
  try {
    await switchLanguage(page, "de");
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
    await page.reload();
    await expect(page.getByTestId("grid-map")).toHaveAttribute("data-ready", "true");
    await expect(page.getByRole("button", { name: "Vergrössern" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Verkleinern" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Meldungen (F8)" }).first()).toBeAttached();
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toHaveCount(0);
  } finally {
    await switchLanguage(page, "en");
  }
});

test("search placeholders fit their boxes in German and Ukrainian", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/grid-monitoring");
  try {
    for (const lang of ["de", "uk"] as const) {
      await switchLanguage(page, lang);
      for (const path of ["/grid-monitoring", "/user-management", "/io-monitoring"]) {
        await page.goto(path);
        const search = page.locator('input[type="search"]').first();
        await expect(search).toBeVisible();
        expect(await placeholderFits(search), `${lang} ${path}`).toBe(true);
      }
    }
  } finally {
    await switchLanguage(page, "en");
  }
});

test("spacing: the cells search clears the tabs, the profile card ends with its content, IO times stay on one line", async ({ page }) => {
  await login(page, ACCOUNTS.admin, "/infrastructure-setup#cells");
  const tabs = (await page.getByRole("tablist").boundingBox())!;
  const search = (await page.getByRole("searchbox").first().boundingBox())!;
  expect(search.y - (tabs.y + tabs.height)).toBeGreaterThanOrEqual(8);

  await page.goto("/user-settings");
  const profile = page.getByRole("region", { name: "Profile" });
  const save = (await profile.getByRole("button", { name: "Save profile" }).boundingBox())!;
  const card = (await profile.boundingBox())!;
  expect(card.y + card.height - (save.y + save.height)).toBeLessThan(40);

  await page.goto("/io-monitoring");
  const works = page.getByRole("navigation", { name: "Electrical works with I/O modules" });
  const time = works.getByText(/^Last data /).first();
  await expect(time).toBeVisible();
  const box = (await time.boundingBox())!;
  const lineHeight = await time.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(box.height).toBeLessThanOrEqual(lineHeight + 1);
});
