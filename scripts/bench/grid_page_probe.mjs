// The browser side of scripts/bench/grid_page.ts, run under Node (Playwright's own runtime):
//   node scripts/bench/grid_page_probe.mjs <baseUrl> <email> <password> <nodes> <repeats>
// Logs in through the real login page in Chromium, then loads /grid-monitoring?voltage=lv
// `repeats` times and prints one JSON line: per load, the milliseconds from the navigation's
// start until the state counts add up to <nodes> and the list shows its first node.
import { chromium } from "playwright-core";

const [baseUrl, email, password, nodesText, repeatsText] = process.argv.slice(2);
const nodes = Number(nodesText);
const repeats = Number(repeatsText);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const url = `${baseUrl}/grid-monitoring?voltage=lv`;
  await page.goto(url);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const shown = () =>
    page.waitForFunction(
      (expected) => {
        const counts = [...document.querySelectorAll('[data-testid^="count-"]')]
          .map((el) => Number((el.textContent ?? "").replace(/\D+/g, "") || 0));
        const total = counts.reduce((a, b) => a + b, 0);
        const row = document.querySelector('[data-testid="grid-list"] [data-node-id]');
        return total === expected && row !== null ? performance.now() : false;
      },
      nodes,
      { polling: "raf", timeout: 60_000 },
    );
  await shown(); // the first load after the login warms the caches
  const times = [];
  for (let k = 0; k < repeats; k++) {
    await page.goto(url);
    times.push(await (await shown()).jsonValue());
  }
  console.log(JSON.stringify({ times }));
} finally {
  await browser.close();
}
