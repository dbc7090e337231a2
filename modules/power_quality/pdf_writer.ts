/** The page writer, colours and small helpers the PDF's parts share. */
import { type Color, type PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { ParameterSummaryDto } from "./contract.ts";
import type { PdfTexts } from "./pdf_texts.ts";

export { type Formatters, formatters } from "./pdf_format.ts";

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
/** The usable width between the margins. */
export const WIDTH = A4[0] - 2 * MARGIN;
export const INK = rgb(0.1, 0.12, 0.16);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.85, 0.87, 0.9);
export const SHADE = rgb(0.96, 0.97, 0.98);
export const ACCENT = rgb(0.11, 0.3, 0.55);
export const GOOD = rgb(0.09, 0.5, 0.27);
export const BAD = rgb(0.75, 0.12, 0.12);
/** The allowed band of a chart (light green) and the tolerated one beyond it (light amber). */
export const BAND_OK = rgb(0.87, 0.95, 0.89);
export const BAND_WARN = rgb(0.99, 0.95, 0.85);
/** L1 brown-red, L2 dark blue, L3 green: distinct in print and for the common colour blindness. */
export const PHASE_COLOURS = [rgb(0.8, 0.25, 0.1), rgb(0.12, 0.3, 0.7), rgb(0.1, 0.55, 0.3)];

/** A page being written top to bottom, with the report's header on every page but the first. */
export class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly texts: PdfTexts,
    /** The running header: report name and node. */
    readonly header: string,
  ) {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
    this.page.drawText(fit(this.regular, this.header, 7.5, WIDTH), {
      x: MARGIN,
      y: A4[1] - 30,
      size: 7.5,
      font: this.regular,
      color: MUTED,
    });
    this.page.drawLine({
      start: { x: MARGIN, y: A4[1] - 35 },
      end: { x: A4[0] - MARGIN, y: A4[1] - 35 },
      thickness: 0.5,
      color: RULE,
    });
  }

  /** Writes "Page i / n" on every page (once all pages exist). */
  finish(footer: string): void {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      const label = `${this.texts.page} ${i + 1} / ${pages.length}`;
      page.drawLine({
        start: { x: MARGIN, y: 36 },
        end: { x: A4[0] - MARGIN, y: 36 },
        thickness: 0.5,
        color: RULE,
      });
      page.drawText(fit(this.regular, footer, 7, WIDTH - 80), {
        x: MARGIN,
        y: 24,
        size: 7,
        font: this.regular,
        color: MUTED,
      });
      page.drawText(label, {
        x: A4[0] - MARGIN - this.regular.widthOfTextAtSize(label, 7.5),
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

  text(
    value: string,
    x: number,
    options: { size?: number; bold?: boolean; color?: Color; y?: number } = {},
  ): void {
    this.page.drawText(value, {
      x,
      y: options.y ?? this.y,
      size: options.size ?? 9,
      font: options.bold ? this.bold : this.regular,
      color: options.color ?? INK,
    });
  }

  /** Text whose right edge is at `right`. */
  textRight(
    value: string,
    right: number,
    options: { size?: number; bold?: boolean; color?: Color; y?: number } = {},
  ): void {
    const font = options.bold ? this.bold : this.regular;
    this.text(value, right - font.widthOfTextAtSize(value, options.size ?? 9), options);
  }

  /** Text centred on `centre`. */
  textCentre(
    value: string,
    centre: number,
    options: { size?: number; bold?: boolean; color?: Color; y?: number } = {},
  ): void {
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
    for (const line of wrap(this.regular, value, size, options.width ?? WIDTH)) {
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
      end: { x: A4[0] - MARGIN, y: this.y + 9 },
      thickness: 0.5,
      color: RULE,
    });
  }
}

export function verdictText(texts: PdfTexts, passed: boolean | null): string {
  return passed === true ? texts.passed : passed === false ? texts.notPassed : texts.notEvaluable;
}

export function verdictColour(passed: boolean | null) {
  return passed === true ? GOOD : passed === false ? BAD : MUTED;
}

export function worstPhase(p: ParameterSummaryDto) {
  return p.phases.reduce((w, x) => ((x.value ?? -1) > (w.value ?? -1) ? x : w), p.phases[0]!);
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
