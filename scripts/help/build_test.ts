import assert from "node:assert/strict";
import { MODULES } from "../../web/src/lib/modules.ts";
import {
  buildHelp,
  HELP_LANGUAGES,
  helpPages,
  OUTPUT_DIR,
  renderPage,
  SOURCE_DIR,
} from "./build.ts";
import { renderMarkdown } from "./markdown.ts";

/** Words that say a screen is not there yet, per language. */
const NOT_THERE: Record<(typeof HELP_LANGUAGES)[number], RegExp> = {
  en: /not (yet )?available|will grow with the module|comes with a later version/i,
  fr: /pas (encore )?disponible|version ultérieure/i,
  de: /nicht verfügbar|späteren Version/i,
  uk: /недоступн|наступн\S* верс/i,
};

const pages = await buildHelp();

Deno.test("every route of the module registry has a help page in en, fr, de and uk", () => {
  for (const lang of HELP_LANGUAGES) {
    for (const module of Object.values(MODULES)) {
      assert.ok(pages.has(`${lang}/${module.helpPage}.html`), `${lang}/${module.helpPage}`);
    }
  }
});

Deno.test("no help page names a screen the registry does not have", async () => {
  const known = new Set(helpPages());
  for (const lang of HELP_LANGUAGES) {
    for await (const entry of Deno.readDir(new URL(`${lang}/`, SOURCE_DIR))) {
      const page = entry.name.replace(/\.md$/, "");
      assert.ok(known.has(page), `web/help/${lang}/${entry.name} is no screen of the app`);
    }
    for await (const entry of Deno.readDir(new URL(`${lang}/`, OUTPUT_DIR))) {
      if (!entry.name.endsWith(".html")) continue;
      assert.ok(pages.has(`${lang}/${entry.name}`), `stale web/public/help/${lang}/${entry.name}`);
    }
  }
});

Deno.test("no page of a built module says it is not available; the others say so", async () => {
  for (const lang of HELP_LANGUAGES) {
    for (const module of Object.values(MODULES)) {
      const source = await Deno.readTextFile(new URL(`${lang}/${module.helpPage}.md`, SOURCE_DIR));
      const html = pages.get(`${lang}/${module.helpPage}.html`)!;
      if (module.built) {
        assert.doesNotMatch(source, NOT_THERE[lang], `${lang}/${module.helpPage}`);
        assert.ok(!html.includes('class="status"'), `${lang}/${module.helpPage}`);
      } else {
        assert.match(html, /<aside class="status" role="note">/, `${lang}/${module.helpPage}`);
      }
    }
  }
});

Deno.test("the committed help pages are those the sources give (deno task help)", async () => {
  for (const [path, html] of pages) {
    const committed = await Deno.readTextFile(new URL(path, OUTPUT_DIR)).catch(() => "");
    assert.equal(committed, html, `web/public/help/${path} is stale: run deno task help`);
  }
});

Deno.test("links between help pages, their anchors and the figures all resolve", async () => {
  const problems: string[] = [];
  for (const [path, html] of pages) {
    const [lang] = path.split("/");
    for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
      if (/^(https?:|mailto:|\.\.\/help\.css$)/.test(href!)) continue;
      const [file, anchor] = href!.replace(/\?.*$/, "").split("#");
      const target = file!.startsWith("../") ? file!.slice(3) : `${lang}/${file}`;
      const page = pages.get(target);
      if (!page) problems.push(`${path}: ${href}`);
      else if (anchor && !page.includes(`id="${anchor}"`)) problems.push(`${path}: ${href}`);
    }
    for (const [, src] of html.matchAll(/<img src="([^"]+)"/g)) {
      const file = new URL(src!.replace(/^\.\.\//, ""), OUTPUT_DIR);
      await Deno.stat(file).catch(() => problems.push(`${path}: image ${src}`));
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the sections the Help Centre links to (route sections, tabs) are anchors of the pages", async () => {
  const routes = new URL("../../web/src/routes/", import.meta.url);
  const anchors: string[] = [
    "infrastructure-setup#io-configuration",
    "user-settings#notification-settings",
  ];
  for await (const entry of Deno.readDir(routes)) {
    const text = await Deno.readTextFile(new URL(entry.name, routes));
    const module = /moduleId: "([a-z-]+)"/.exec(text)?.[1];
    for (const [, section] of text.matchAll(/section: "([a-z-]+)"/g)) {
      anchors.push(`${MODULES[module as keyof typeof MODULES].helpPage}#${section}`);
    }
  }
  assert.ok(anchors.length > 5);
  for (const lang of HELP_LANGUAGES) {
    for (const anchor of anchors) {
      const [page, id] = anchor.split("#");
      assert.ok(pages.get(`${lang}/${page}.html`)?.includes(`id="${id}"`), `${lang}/${anchor}`);
    }
  }
});

Deno.test("renderMarkdown() writes headings with ids, lists, notes, figures and inline markup", () => {
  const { title, html } = renderMarkdown(
    "# Grid Monitoring\n\nThe lead.\n\n## The list {#list}\n\n- **One** `a`\n  continued\n- [Two](faq.html#x)\n\n> A note\n\n![The screen](../img/x.jpg)\n\nText & more.",
  );
  assert.equal(title, "Grid Monitoring");
  assert.equal(
    html,
    [
      "<h1>Grid Monitoring</h1>",
      '<p class="lead">The lead.</p>',
      '<h2 id="list">The list</h2>',
      "<ul>",
      "  <li><strong>One</strong> <code>a</code> continued</li>",
      '  <li><a href="faq.html#x">Two</a></li>',
      "</ul>",
      '<aside class="note"><p>A note</p></aside>',
      '<figure><img src="../img/x.jpg" alt="The screen" loading="lazy"><figcaption>The screen</figcaption></figure>',
      "<p>Text &amp; more.</p>",
    ].join("\n"),
  );
});

Deno.test("renderPage() marks the current page and links the other languages", () => {
  const html = renderPage("fr", "faq", "# FAQ\n\nTexte.");
  assert.match(html, /<html lang="fr">/);
  assert.match(html, /href="faq.html" aria-current="page"/);
  assert.match(html, /href="..\/de\/faq.html" hreflang="de"/);
});

Deno.test("every figure of a source page is drawn as a figure (Markdown wrapping included)", async () => {
  for (const [path, html] of pages) {
    const source = await Deno.readTextFile(new URL(path.replace(/\.html$/, ".md"), SOURCE_DIR));
    const figures = source.match(/^!\[/gm)?.length ?? 0;
    assert.equal(html.match(/<figure>/g)?.length ?? 0, figures, path);
    assert.ok(!html.includes("**"), `${path}: unrendered bold`);
  }
});
