/**
 * Counted texts go through i18next's plural rules: "with 1 parameter", never "with 1
 * parameters", in every language (uk with its few and many forms).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import i18next from "i18next";

const LANGUAGES = ["en", "fr", "de", "uk"] as const;

async function statistics(lang: string) {
  const url = new URL(`./locales/${lang}/statistics.json`, import.meta.url);
  return JSON.parse(await readFile(url, "utf8"));
}

const i18n = i18next.createInstance();
await i18n.init({
  lng: "en",
  fallbackLng: "en",
  ns: ["statistics"],
  defaultNS: "statistics",
  resources: Object.fromEntries(
    await Promise.all(LANGUAGES.map(async (l) => [l, { statistics: await statistics(l) }])),
  ),
  interpolation: { escapeValue: false },
});

/** The refusal of one more feeder, as the statistics page composes it. */
function refusedFeeder(lang: string, parameters: number, feeders: number): string {
  const t = i18n.getFixedT(lang, "statistics");
  return t("limits.refusedFeeder", {
    max: 6,
    with: t("limits.withParameters", { count: parameters }),
    fit: t("limits.feedersFit", { count: feeders }),
  });
}

Deno.test("the chart limit message says 'with 1 parameter' and 'with 2 parameters'", () => {
  assert.equal(
    refusedFeeder("en", 1, 6),
    "At most 6 charts can be shown at once: with 1 parameter, at most 6 feeders fit.",
  );
  assert.equal(
    refusedFeeder("en", 6, 1),
    "At most 6 charts can be shown at once: with 6 parameters, at most 1 feeder fits.",
  );
  assert.match(refusedFeeder("fr", 1, 6), /avec 1 paramètre, 6 départs au plus/);
  assert.match(refusedFeeder("de", 2, 3), /mit 2 Parametern passen höchstens 3 Abgänge/);
  assert.match(refusedFeeder("de", 1, 1), /mit 1 Parameter passt höchstens 1 Abgang/);
  assert.match(refusedFeeder("uk", 1, 5), /з 1 параметром вміщується не більше 5 фідерів/);
  assert.match(refusedFeeder("uk", 3, 2), /з 3 параметрами/);
});

Deno.test("no counted text of visual statistics reads its count without a plural form", async () => {
  for (const lang of LANGUAGES) {
    const limits = (await statistics(lang)).limits as Record<string, string>;
    for (const [key, text] of Object.entries(limits)) {
      // A number next to a noun comes from `count` (plural keys), or is a maximum.
      assert.doesNotMatch(text, /\{\{(parameters|feeders)\}\}/, `${lang} limits.${key}`);
    }
  }
});
