/**
 * The offline Help Centre: `web/help/<lang>/<page>.md` (a small Markdown subset, edited by hand)
 * becomes `web/public/help/<lang>/<page>.html`, which Vite copies into the build and the product
 * serves at /help. One page per screen of the module registry (web/src/lib/modules.ts), plus the
 * index, the FAQ, troubleshooting and the About page. A module not built yet gets the "not
 * available in this version" notice from the registry, so no page can claim otherwise.
 *
 * `deno task help` writes the pages; scripts/help/build_test.ts fails when they are stale.
 *
 * @module
 */
import { MODULES } from "../../web/src/lib/modules.ts";
import { renderMarkdown } from "./markdown.ts";

/** The languages of the help, English first (the fallback of the others). */
export const HELP_LANGUAGES = ["en", "fr", "de", "uk"] as const;
export type HelpLanguage = (typeof HELP_LANGUAGES)[number];

/** Pages that are not a screen. */
export const GENERAL_PAGES = ["index", "faq", "troubleshooting", "about"] as const;

const ROOT = new URL("../../", import.meta.url);
export const SOURCE_DIR = new URL("web/help/", ROOT);
export const OUTPUT_DIR = new URL("web/public/help/", ROOT);

/** The words of the page frame in each language. */
const FRAME: Record<HelpLanguage, {
  name: string;
  documentation: string;
  faq: string;
  troubleshooting: string;
  about: string;
  back: string;
  offline: string;
  languages: string;
  notBuiltTitle: string;
  notBuilt: string;
}> = {
  en: {
    name: "English",
    documentation: "Documentation",
    faq: "FAQ",
    troubleshooting: "Troubleshooting",
    about: "About",
    back: "Back to the documentation",
    offline:
      "This documentation is served by your GridWatch installation and works without an internet connection.",
    languages: "Languages",
    notBuiltTitle: "Not available in this version",
    notBuilt:
      "This module comes with a later version. Its entry in the menu is greyed out; the page below describes what it will do.",
  },
  fr: {
    name: "Français",
    documentation: "Documentation",
    faq: "FAQ",
    troubleshooting: "Dépannage",
    about: "À propos",
    back: "Retour à la documentation",
    offline:
      "Cette documentation est servie par votre installation GridWatch et fonctionne sans connexion Internet.",
    languages: "Langues",
    notBuiltTitle: "Pas disponible dans cette version",
    notBuilt:
      "Ce module arrivera dans une version ultérieure. Son entrée du menu est grisée ; cette page décrit ce qu’il fera.",
  },
  de: {
    name: "Deutsch",
    documentation: "Dokumentation",
    faq: "FAQ",
    troubleshooting: "Fehlerbehebung",
    about: "Über",
    back: "Zurück zur Dokumentation",
    offline:
      "Diese Dokumentation wird von Ihrer GridWatch-Installation bereitgestellt und funktioniert ohne Internetverbindung.",
    languages: "Sprachen",
    notBuiltTitle: "In dieser Version nicht verfügbar",
    notBuilt:
      "Dieses Modul folgt in einer späteren Version. Sein Menüeintrag ist ausgegraut; diese Seite beschreibt, was es tun wird.",
  },
  uk: {
    name: "Українська",
    documentation: "Документація",
    faq: "Поширені запитання",
    troubleshooting: "Усунення несправностей",
    about: "Про програму",
    back: "Назад до документації",
    offline:
      "Цю документацію надає ваша інсталяція GridWatch; вона працює без підключення до Інтернету.",
    languages: "Мови",
    notBuiltTitle: "Недоступно в цій версії",
    notBuilt:
      "Цей модуль з’явиться в наступній версії. Його пункт меню неактивний; ця сторінка описує, що він робитиме.",
  },
};

/** The pages every language has: the general ones and one per module of the registry. */
export function helpPages(): string[] {
  return [...GENERAL_PAGES, ...Object.values(MODULES).map((m) => m.helpPage)];
}

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** One page: the frame around the rendered Markdown. */
export function renderPage(lang: HelpLanguage, page: string, markdown: string): string {
  const words = FRAME[lang];
  const { title, html } = renderMarkdown(markdown);
  const module = Object.values(MODULES).find((m) => m.helpPage === page);
  const notice = module && !module.built
    ? `      <aside class="status" role="note">\n        <h2>${
      escape(words.notBuiltTitle)
    }</h2>\n` +
      `        <p>${escape(words.notBuilt)}</p>\n      </aside>\n`
    : "";
  const [h1, ...rest] = html.split("\n");
  const current = (name: string) => (page === name ? ' aria-current="page"' : "");
  const languages = HELP_LANGUAGES.map((l) =>
    l === lang
      ? `<li><span aria-current="true" lang="${l}">${FRAME[l].name}</span></li>`
      : `<li><a href="../${l}/${page}.html" hreflang="${l}" lang="${l}">${FRAME[l].name}</a></li>`
  ).join("");
  return `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>${escape(title)} · GridWatch</title>
    <link rel="stylesheet" href="../help.css">
  </head>
  <body>
    <header class="top">
      <a class="brand" href="index.html">GridWatch</a>
      <nav aria-label="${escape(words.documentation)}">
        <ul>
          <li><a href="index.html"${current("index")}>${escape(words.documentation)}</a></li>
          <li><a href="faq.html"${current("faq")}>${escape(words.faq)}</a></li>
          <li><a href="troubleshooting.html"${current("troubleshooting")}>${
    escape(words.troubleshooting)
  }</a></li>
          <li><a href="about.html"${current("about")}>${escape(words.about)}</a></li>
        </ul>
      </nav>
      <nav class="lang" aria-label="${escape(words.languages)}"><ul>${languages}</ul></nav>
    </header>
    <main>
      ${h1}
${notice}${rest.map((line) => (line ? `      ${line}` : "")).join("\n")}
${
    page === "index"
      ? ""
      : `      <p class="back"><a href="index.html">${escape(words.back)}</a></p>\n`
  }    </main>
    <footer>
      <p>${escape(words.offline)}</p>
    </footer>
  </body>
</html>
`;
}

/** Every page of every language, by its path under web/public/help/. */
export async function buildHelp(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const lang of HELP_LANGUAGES) {
    for (const page of helpPages()) {
      const source = new URL(`${lang}/${page}.md`, SOURCE_DIR);
      let markdown: string;
      try {
        markdown = await Deno.readTextFile(source);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          throw new Error(`Help page missing: web/help/${lang}/${page}.md`);
        }
        throw error;
      }
      out.set(`${lang}/${page}.html`, renderPage(lang, page, markdown));
    }
  }
  return out;
}

if (import.meta.main) {
  const pages = await buildHelp();
  for (const [path, html] of pages) {
    const target = new URL(path, OUTPUT_DIR);
    await Deno.mkdir(new URL(".", target), { recursive: true });
    await Deno.writeTextFile(target, html);
  }
  console.log(`Wrote ${pages.size} help pages to web/public/help/`);
}
