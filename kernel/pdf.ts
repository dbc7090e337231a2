/**
 * What the PDFs of the modules share (pdf-lib): a document with DejaVu Sans embedded (regular
 * and bold, subset; Latin and Cyrillic, so text extracts in all four languages), A4 page
 * geometry and colours, a top-to-bottom page writer with page numbers, text fitting.
 */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
export const INK = rgb(0.1, 0.12, 0.16);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.85, 0.87, 0.9);

const FONT_DIR = new URL("../node_modules/dejavu-fonts-ttf/ttf/", import.meta.url);
let fonts: Promise<[Uint8Array, Uint8Array]> | undefined;
const loadFonts = () =>
  fonts ??= Promise.all([
    Deno.readFile(new URL("DejaVuSans.ttf", FONT_DIR)),
    Deno.readFile(new URL("DejaVuSans-Bold.ttf", FONT_DIR)),
  ]);

/** A new PDF with its metadata and the embedded fonts. */
export async function openPdf(
  meta: { title: string; language: string },
): Promise<{ doc: PDFDocument; regular: PDFFont; bold: PDFFont }> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await loadFonts();
  const regular = await doc.embedFont(regularBytes, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  doc.setTitle(meta.title);
  doc.setLanguage(meta.language);
  doc.setProducer("GridWatch");
  return { doc, regular, bold };
}

/** A page being written top to bottom; each page numbered "`pageLabel` n" at its foot. */
export class PageWriter {
  page!: PDFPage;
  y = 0;
  pages = 0;
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly pageLabel: string,
    readonly size: [number, number] = A4,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage(this.size);
    this.pages++;
    this.y = this.size[1] - MARGIN;
    this.page.drawText(`${this.pageLabel} ${this.pages}`, {
      x: this.size[0] - MARGIN - 40,
      y: 24,
      size: 8,
      font: this.regular,
      color: MUTED,
    });
  }

  need(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(
    value: string,
    x: number,
    options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; y?: number } = {},
  ): void {
    this.page.drawText(value, {
      x,
      y: options.y ?? this.y,
      size: options.size ?? 9,
      font: options.bold ? this.bold : this.regular,
      color: options.color ?? INK,
    });
  }

  line(size = 9, gap = 4): void {
    this.y -= size + gap;
  }

  heading(value: string): void {
    this.need(40);
    this.y -= 8;
    this.text(value, MARGIN, { size: 13, bold: true });
    this.line(13, 8);
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

/** `text` cut with an ellipsis to fit `width` points. */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
