/**
 * i18next setup: English is bundled (it is the fallback), the other languages and the server's
 * error texts (kernel/i18n/<lang>/errors.json, namespace `errors`) load on demand.
 */
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { resolveLanguage, type UiLanguage } from "../lib/language.ts";
import { convertResource } from "../lib/placeholders.ts";
import { NAMESPACES } from "./namespaces.ts";

type Json = { default: Record<string, unknown> };

export { NAMESPACES };

const english = import.meta.glob<Json>("./locales/en/*.json", { eager: true });
const otherLanguages = import.meta.glob<Json>(["./locales/*/*.json", "!./locales/en/*.json"]);
const serverErrors = import.meta.glob<Json>("../../../kernel/i18n/*/errors.json");

const namespaceOf = (path: string) => path.replace(/^.*\/([^/]+)\.json$/, "$1");
const languageOf = (path: string) => path.replace(/^.*\/([^/]+)\/[^/]+\.json$/, "$1");

function englishResources(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(english).map(([path, mod]) => [namespaceOf(path), mod.default]),
  );
}

const loaded = new Set<string>(["en"]);
const errorsLoaded = new Set<string>();

async function loadErrors(language: string): Promise<void> {
  if (errorsLoaded.has(language)) return;
  const entry = Object.entries(serverErrors).find(([path]) => languageOf(path) === language);
  if (!entry) return;
  try {
    const mod = await entry[1]();
    i18next.addResourceBundle(language, "errors", convertResource(mod.default), true, true);
    errorsLoaded.add(language);
  } catch {
    // Without the catalogue the web shows "Unknown message (code N)"; nothing else breaks.
  }
}

async function loadLanguage(language: UiLanguage): Promise<void> {
  if (!loaded.has(language)) {
    const entries = Object.entries(otherLanguages).filter(([path]) =>
      languageOf(path) === language
    );
    const modules = await Promise.all(
      entries.map(async ([path, load]) => [path, await load()] as const),
    );
    for (const [path, mod] of modules) {
      i18next.addResourceBundle(language, namespaceOf(path), mod.default, true, true);
    }
    loaded.add(language);
  }
  // The server's error texts are needed only once a call fails: load them without waiting.
  void Promise.all([loadErrors("en"), loadErrors(language)]);
}

/** Initialises i18next in the browser's language; call once before the first render. */
export async function initI18n(): Promise<void> {
  const language = resolveLanguage([...(navigator.languages ?? []), navigator.language]);
  await i18next.use(initReactI18next).init({
    lng: "en",
    fallbackLng: "en",
    supportedLngs: ["en", "fr", "de", "uk"],
    ns: [...NAMESPACES, "errors"],
    defaultNS: "common",
    resources: { en: englishResources() },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  await setUiLanguage(language);
}

/** Loads a language's texts, then switches the interface and the document language to it. */
export async function setUiLanguage(language: UiLanguage): Promise<void> {
  await loadLanguage(language).catch(() => undefined);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18next };
