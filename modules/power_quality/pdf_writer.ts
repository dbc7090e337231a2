/** The page writer, colours and formatters the PDF's parts share. */
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { ParameterSummaryDto } from "./contract.ts";
import type { PdfTexts } from "./pdf_texts.ts";

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
export const INK = rgb(0.1, 0.12, 0.16);
export const MUTED = rgb(0.42, 0.45, 0.5);
export const RULE = rgb(0.85, 0.87, 0.9);
export const GOOD = rgb(0.09, 0.5, 0.27);
export const BAD = rgb(0.75, 0.12, 0.12);
export const PHASE_COLOURS = [rgb(0.85, 0.15, 0.15), rgb(0.15, 0.35, 0.85), rgb(0.1, 0.6, 0.25)];

/** A page being written top to bottom. */
export class Writer {
  page!: PDFPage;
  y = 0;
  pages = 0;
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly texts: PdfTexts,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.pages++;
    this.y = A4[1] - MARGIN;
    this.page.drawText(`${this.texts.page} ${this.pages}`, {
      x: A4[0] - MARGIN - 40,
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
      end: { x: A4[0] - MARGIN, y: this.y + 9 },
      thickness: 0.5,
      color: RULE,
    });
  }
}

export interface Formatters {
  number(v: number | null, digits?: number): string;
  date(d: Date): string;
}

export function formatters(language: string, timeZone: string): Formatters {
  const safeZone = (() => {
    try {
      new Intl.DateTimeFormat("en", { timeZone });
      return timeZone;
    } catch {
      return "UTC";
    }
  })();
  const dates = new Intl.DateTimeFormat(language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: safeZone,
  });
  return {
    number: (v, digits = 2) =>
      v === null
        ? "–"
        : new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(v),
    date: (d) => dates.format(d),
  };
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

/** `text` cut with an ellipsis to fit `width` points. */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
