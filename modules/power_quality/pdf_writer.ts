/** The page writer, colours and formatters the PDF's parts share. */
import { type PDFDocument, type PDFFont, rgb } from "pdf-lib";
import { MUTED, PageWriter } from "../../kernel/mod.ts";
import type { ParameterSummaryDto } from "./contract.ts";
import type { PdfTexts } from "./pdf_texts.ts";

export { A4, fit, INK, MARGIN, MUTED, RULE } from "../../kernel/mod.ts";
export const GOOD = rgb(0.09, 0.5, 0.27);
export const BAD = rgb(0.75, 0.12, 0.12);
export const PHASE_COLOURS = [rgb(0.85, 0.15, 0.15), rgb(0.15, 0.35, 0.85), rgb(0.1, 0.6, 0.25)];

/** A page being written top to bottom, with the report's texts. */
export class Writer extends PageWriter {
  constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont, readonly texts: PdfTexts) {
    super(doc, regular, bold, texts.page);
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
