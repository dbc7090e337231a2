/**
 * The Markdown subset of the help pages, rendered to HTML:
 * `# Title` (first line), `## Heading {#id}`, `### Heading`, paragraphs (the first one is the
 * lead), `- ` and `1. ` lists (continuation lines indented), `> ` notes, a figure
 * `![caption](img/file.jpg)` on its own line, and inline `**bold**`, `` `code` ``, `[text](href)`.
 */

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Inline markup of one block's text. */
export function inline(text: string): string {
  return escape(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

/** A heading's id: the explicit `{#id}`, else its words in lower case joined by dashes. */
function heading(text: string): { id: string; text: string } {
  const explicit = /\s*\{#([a-z0-9-]+)\}\s*$/.exec(text);
  if (explicit) return { id: explicit[1]!, text: text.slice(0, explicit.index) };
  const id = text.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-|-$/g, "");
  return { id, text };
}

/** Renders a page; `title` is the text of its first-line `# Title`. */
export function renderMarkdown(markdown: string): { title: string; html: string } {
  const lines = markdown.replace(/\r\n/g, "\n").split("\n");
  const first = lines.shift() ?? "";
  if (!first.startsWith("# ")) throw new Error("A help page starts with '# Title'");
  const title = first.slice(2).trim();
  const out = [`<h1>${inline(title)}</h1>`];
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      if (current.length) blocks.push(current);
      current = [];
    } else current.push(line);
  }
  if (current.length) blocks.push(current);

  let lead = true;
  for (const block of blocks) {
    const head = block[0]!;
    if (head.startsWith("## ") || head.startsWith("### ")) {
      const level = head.startsWith("### ") ? 3 : 2;
      const h = heading(head.slice(level + 1).trim());
      out.push(`<h${level} id="${h.id}">${inline(h.text)}</h${level}>`);
      if (block.length > 1) out.push(`<p>${inline(block.slice(1).join(" "))}</p>`);
      lead = false;
      continue;
    }
    const figure = /^!\[([^\]]*)\]\(([^)\s]+)\)$/.exec(head.trim());
    if (figure && block.length === 1) {
      out.push(
        `<figure><img src="${escape(figure[2]!)}" alt="${escape(figure[1]!)}" loading="lazy">` +
          `<figcaption>${inline(figure[1]!)}</figcaption></figure>`,
      );
      continue;
    }
    if (head.startsWith("> ")) {
      const text = block.map((l) => l.replace(/^>\s?/, "")).join(" ");
      out.push(`<aside class="note"><p>${inline(text)}</p></aside>`);
      continue;
    }
    const ordered = /^1\. /.test(head);
    if (head.startsWith("- ") || ordered) {
      const items: string[] = [];
      for (const line of block) {
        if (/^(- |\d+\. )/.test(line)) items.push(line.replace(/^(- |\d+\. )/, ""));
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>`, ...items.map((i) => `  <li>${inline(i)}</li>`), `</${tag}>`);
      continue;
    }
    const text = inline(block.map((l) => l.trim()).join(" "));
    out.push(lead ? `<p class="lead">${text}</p>` : `<p>${text}</p>`);
    lead = false;
  }
  return { title, html: out.join("\n") };
}
