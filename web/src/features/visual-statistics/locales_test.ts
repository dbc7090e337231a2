import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const PLURAL = /_(zero|one|two|few|many|other)$/;

function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix.replace(PLURAL, "")];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key)
  );
}

async function namespace(lang: string): Promise<Set<string>> {
  const url = new URL(`../../i18n/locales/${lang}/statistics.json`, import.meta.url);
  return new Set(keysOf(JSON.parse(await readFile(url, "utf8"))));
}

Deno.test("statistics.json has the same texts in en, fr, de and uk (plural forms aside)", async () => {
  const english = [...await namespace("en")].sort();
  assert.ok(english.length > 50);
  for (const lang of ["fr", "de", "uk"]) {
    assert.deepEqual([...await namespace(lang)].sort(), english, lang);
  }
});
