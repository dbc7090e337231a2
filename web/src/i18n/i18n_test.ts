/**
 * Every namespace of the web app has the same texts in en, fr, de and uk (plural forms aside),
 * and every text a component asks for with a literal key exists in English, in the namespace
 * the component's `useTranslation` (or an explicit `ns:` prefix) names.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { NAMESPACES } from "./namespaces.ts";

const LANGUAGES = ["en", "fr", "de", "uk"] as const;
const SRC = fileURLToPath(new URL("../", import.meta.url));
const LOCALES = fileURLToPath(new URL("./locales/", import.meta.url));
const ERRORS = fileURLToPath(new URL("../../../kernel/i18n/en/errors.json", import.meta.url));
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Json = Record<string, unknown>;

/** The dotted keys of a resource, plural suffixes kept. */
function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value as Json).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key)
  );
}

async function resource(lang: string, ns: string): Promise<Json> {
  return JSON.parse(await readFile(`${LOCALES}${lang}/${ns}.json`, "utf8"));
}

Deno.test("every namespace has a file in en, fr, de and uk, and nothing else does", async () => {
  for (const lang of LANGUAGES) {
    const files = (await readdir(`${LOCALES}${lang}`)).filter((f) => f.endsWith(".json")).sort();
    assert.deepEqual(files, NAMESPACES.map((ns) => `${ns}.json`).sort(), lang);
  }
});

Deno.test("every namespace has the same keys in en, fr, de and uk (plural forms aside)", async () => {
  const problems: string[] = [];
  for (const ns of NAMESPACES) {
    const base = (lang: string) =>
      resource(lang, ns).then((r) => new Set(keysOf(r).map((k) => k.replace(PLURAL, ""))));
    const english = await base("en");
    for (const lang of LANGUAGES.slice(1)) {
      const other = await base(lang);
      for (const key of english) {
        if (!other.has(key)) problems.push(`${lang}/${ns}: ${key} missing`);
      }
      for (const key of other) if (!english.has(key)) problems.push(`${lang}/${ns}: ${key} extra`);
    }
  }
  assert.deepEqual(problems, []);
});

/** The source files of the web app that translate (tests aside). */
async function sources(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory()) out.push(...await sources(`${path}/`));
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) {
      out.push({ path: path.slice(SRC.length), text: await readFile(path, "utf8") });
    }
  }
  return out;
}

/** The first namespace of each `useTranslation(...)` call, by its position in the file. */
function hooksOf(text: string): { at: number; ns: string }[] {
  return [...text.matchAll(/useTranslation\(\s*(?:\[\s*)?(?:"([\w-]+)")?/g)].map((m) => ({
    at: m.index!,
    ns: m[1] ?? "common",
  }));
}

/** Literal keys passed to `t(...)`: `t("a.b")`, `t("ns:a.b")`, and template keys without `${}`. */
function keysUsed(text: string): { at: number; key: string }[] {
  return [...text.matchAll(/(?<![\w.])t\(\s*(?:"([^"\n]+)"|`([^`$\n]+)`)/g)].map((m) => ({
    at: m.index!,
    key: m[1] ?? m[2]!,
  }));
}

Deno.test("every literal t() key of the web app has an English text in its namespace", async () => {
  const english = new Map<string, Set<string>>();
  for (const ns of NAMESPACES) english.set(ns, new Set(keysOf(await resource("en", ns))));
  english.set("errors", new Set(Object.keys(JSON.parse(await readFile(ERRORS, "utf8")))));
  const has = (ns: string, key: string) => {
    const keys = english.get(ns);
    return keys !== undefined &&
      (keys.has(key) || [..."one,other".split(",")].some((p) => keys.has(`${key}_${p}`)));
  };
  const missing: string[] = [];
  let checked = 0;
  for (const file of await sources(SRC)) {
    const hooks = hooksOf(file.text);
    if (!hooks.length) continue;
    for (const use of keysUsed(file.text)) {
      const hook = hooks.filter((h) => h.at < use.at).at(-1) ?? hooks[0]!;
      const [ns, key] = use.key.includes(":")
        ? use.key.split(":", 2) as [string, string]
        : [hook.ns, use.key];
      checked++;
      if (!has(ns, key)) missing.push(`${file.path}: ${ns}:${key}`);
    }
  }
  assert.ok(checked > 500, `the scan found the keys (${checked})`);
  assert.deepEqual(missing, []);
});
