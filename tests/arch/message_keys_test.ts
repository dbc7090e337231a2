/** Every message key the server code sends to clients has a text in every language. */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await sourceFiles(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) out.push(path);
  }
  return out;
}

Deno.test("every ingest.* and common.* key used in server code has a text in en, fr, de and uk", async () => {
  const used = new Set<string>();
  for (const file of [...await sourceFiles("core"), ...await sourceFiles("modules")]) {
    for (
      const match of (await readFile(file, "utf8")).matchAll(/"((?:ingest|common)\.[a-zA-Z]+)"/g)
    ) used.add(match[1]!);
  }
  assert.ok(used.size > 10, "the scan found the keys");
  for (const lang of ["en", "fr", "de", "uk"]) {
    const texts = JSON.parse(
      await readFile(`kernel/i18n/${lang}/errors.json`, "utf8"),
    ) as Record<string, string>;
    const missing = [...used].filter((key) => !texts[key]);
    assert.deepEqual(missing, [], `Keys without a ${lang} text`);
  }
});
