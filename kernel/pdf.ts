/**
 * What the PDFs of the modules share (pdf-lib): a document with DejaVu Sans embedded (regular
 * and bold, subset; Latin and Cyrillic, so text extracts in all four languages), A4 page
 * geometry and colours, a top-to-bottom page writer with page numbers, text fitting.
 */
import fontkit from "@pdf-lib/fontkit";
import { type Color, PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
export const INK = rgb(0.1, 0.12, 0.16);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.85, 0.87, 0.9);
export const SHADE = rgb(0.96, 0.97, 0.98);
export const ACCENT = rgb(0.11, 0.3, 0.55);

const FONT_DIR = new URL("../node_modules/dejavu-fonts-ttf/ttf/", import.meta.url);
let fonts: Promise<[Uint8Array, Uint8Array]> | undefined;
const loadFonts = () =>
  fonts ??= Promise.all([
    Deno.readFile(new URL("DejaVuSans.ttf", FONT_DIR)),
    Deno.readFile(new URL("DejaVuSans-Bold.ttf", FONT_DIR)),
  ]);

/**
 * fontkit that parses each font file once per process: parsing DejaVu Sans (750 KB) is most of
 * a short document's time otherwise. pdf-lib only reads the parsed font (each document makes its
 * own subset of it), so sharing it between documents is safe.
 */
const parsed = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();
const cachedFontkit: typeof fontkit = {
  ...fontkit,
  create(data: Uint8Array, postscriptName?: string) {
    let font = parsed.get(data);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      parsed.set(data, font);
    }
    return font;
  },
};

/** A new PDF with its metadata and the embedded fonts. */
export async function openPdf(
  meta: { title: string; language: string; author?: string },
): Promise<{ doc: PDFDocument; regular: PDFFont; bold: PDFFont }> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachedFontkit);
  const [regularBytes, boldBytes] = await loadFonts();
  const regular = await doc.embedFont(regularBytes, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  doc.setTitle(meta.title);
  doc.setLanguage(meta.language);
  if (meta.author) doc.setAuthor(meta.author);
  doc.setProducer("GridWatch");
  doc.setCreator("GridWatch");
  return { doc, regular, bold };
}

type TextOptions = { size?: number; bold?: boolean; color?: Color; y?: number };

/**
 * A document written top to bottom, page after page. Every page but the first carries the
 * running `header` (when one is given); `finish` numbers the pages "`pageLabel` i / n" at their
 * foot, beside an optional footer line.
 */
export class PageWriter {
  page!: PDFPage;
  y = 0;
  readonly size: [number, number];
  readonly width: number;
  readonly header: string | undefined;
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly pageLabel: string,
    options: { size?: [number, number]; header?: string } = {},
  ) {
    this.size = options.size ?? A4;
    this.width = this.size[0] - 2 * MARGIN;
    this.header = options.header;
    this.page = this.doc.addPage(this.size);
    this.y = this.size[1] - MARGIN;
  }

  get pages(): number {
    return this.doc.getPageCount();
  }

  newPage(): void {
    const [width, height] = this.size;
    this.page = this.doc.addPage(this.size);
    this.y = height - MARGIN;
    if (!this.header) return;
    this.page.drawText(fit(this.regular, this.header, 7.5, this.width), {
      x: MARGIN,
      y: height - 30,
      size: 7.5,
      font: this.regular,
      color: MUTED,
    });
    this.page.drawLine({
      start: { x: MARGIN, y: height - 35 },
      end: { x: width - MARGIN, y: height - 35 },
      thickness: 0.5,
      color: RULE,
    });
  }

  /** Writes "Page i / n" and the footer on every page (once all pages exist). */
  finish(footer = ""): void {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      const label = `${this.pageLabel} ${i + 1} / ${pages.length}`;
      page.drawLine({
        start: { x: MARGIN, y: 36 },
        end: { x: this.size[0] - MARGIN, y: 36 },
        thickness: 0.5,
        color: RULE,
      });
      if (footer) {
        page.drawText(fit(this.regular, footer, 7, this.width - 80), {
          x: MARGIN,
          y: 24,
          size: 7,
          font: this.regular,
          color: MUTED,
        });
      }
      page.drawText(label, {
        x: this.size[0] - MARGIN - this.regular.widthOfTextAtSize(label, 7.5),
        y: 24,
        size: 7.5,
        font: this.regular,
        color: MUTED,
      });
    });
  }

  need(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(value: string, x: number, options: TextOptions = {}): void {
    this.page.drawText(value, {
      x,
      y: options.y ?? this.y,
      size: options.size ?? 9,
      font: options.bold ? this.bold : this.regular,
      color: options.color ?? INK,
    });
  }

  /** Text whose right edge is at `right`. */
  textRight(value: string, right: number, options: TextOptions = {}): void {
    const font = options.bold ? this.bold : this.regular;
    this.text(value, right - font.widthOfTextAtSize(value, options.size ?? 9), options);
  }

  /** Text centred on `centre`. */
  textCentre(value: string, centre: number, options: TextOptions = {}): void {
    const font = options.bold ? this.bold : this.regular;
    this.text(value, centre - font.widthOfTextAtSize(value, options.size ?? 9) / 2, options);
  }

  line(size = 9, gap = 4): void {
    this.y -= size + gap;
  }

  /** Text wrapped at word boundaries to `width`, line by line from the current position. */
  paragraph(
    value: string,
    options: { size?: number; color?: Color; x?: number; width?: number } = {},
  ): void {
    const size = options.size ?? 8;
    for (const line of wrap(this.regular, value, size, options.width ?? this.width)) {
      this.text(line, options.x ?? MARGIN, {
        size,
        ...(options.color ? { color: options.color } : {}),
      });
      this.line(size, 2.5);
    }
  }

  /** A section title with an accent bar. */
  heading(value: string, space = 40): void {
    this.need(space);
    this.y -= 8;
    this.page.drawRectangle({ x: MARGIN, y: this.y - 2, width: 3, height: 14, color: ACCENT });
    this.text(value, MARGIN + 9, { size: 12.5, bold: true });
    this.line(13, 8);
  }

  /** A smaller title inside a section. */
  subheading(value: string): void {
    this.text(value, MARGIN, { size: 10, bold: true, color: ACCENT });
    this.line(10, 5);
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 9 },
      end: { x: this.size[0] - MARGIN, y: this.y + 9 },
      thickness: 0.5,
      color: RULE,
    });
  }
}

/** `text` in lines of at most `width` points, broken between words. */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/)) {
    const next = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(next, size) > width) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  if (current) lines.push(current);
  return lines;
}

/** `text` cut with an ellipsis to fit `width` points. */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
