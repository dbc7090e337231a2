/** The page writer, colours and small helpers the PDF's parts share. */
import { type PDFDocument, type PDFFont, rgb } from "pdf-lib";
import { A4, MARGIN, MUTED, PageWriter } from "../../kernel/mod.ts";
import type { ParameterSummaryDto } from "./contract.ts";
import type { PdfTexts } from "./pdf_texts.ts";

export { type Formatters, formatters } from "./pdf_format.ts";
export { A4, ACCENT, fit, INK, MARGIN, MUTED, RULE, SHADE, wrap } from "../../kernel/mod.ts";

/** The usable width between the margins. */
export const WIDTH = A4[0] - 2 * MARGIN;
export const GOOD = rgb(0.09, 0.5, 0.27);
export const BAD = rgb(0.75, 0.12, 0.12);
/** The allowed band of a chart (light green) and the tolerated one beyond it (light amber). */
export const BAND_OK = rgb(0.87, 0.95, 0.89);
export const BAND_WARN = rgb(0.99, 0.95, 0.85);
/** L1 brown-red, L2 dark blue, L3 green: distinct in print and for the common colour blindness. */
export const PHASE_COLOURS = [rgb(0.8, 0.25, 0.1), rgb(0.12, 0.3, 0.7), rgb(0.1, 0.55, 0.3)];

/** A page being written top to bottom, with the report's texts and its running header. */
export class Writer extends PageWriter {
  constructor(
    doc: PDFDocument,
    regular: PDFFont,
    bold: PDFFont,
    readonly texts: PdfTexts,
    /** The running header: report name and node. */
    header: string,
  ) {
    super(doc, regular, bold, texts.page, { header });
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
