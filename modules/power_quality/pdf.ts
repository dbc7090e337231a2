/**
 * The PDF of a report, made in the process with pdf-lib: vector text in an embedded DejaVu Sans
 * (Latin and Cyrillic, so the text can be extracted in all four languages), vector charts (only
 * the customer's logo is an image). Numbers, dates and times in the customer's formats and time
 * zone (Global Settings). Pages: cover (logo, node, period, standard, verdict), then per feeder
 * the summary table, data availability and weeks, the harmonics against their limits, and per
 * parameter the trend with its limit bands and the cumulative-probability curve; last the
 * node's voltage events (EN 50160 dip and swell tables, the list).
 */
import { type PDFDocument, type PDFImage, rgb } from "pdf-lib";
import { openPdf } from "../../kernel/mod.ts";
import type { ComplianceInput } from "../../core/mod.ts";
import type { PeriodEvents } from "../voltage_events/mod.ts";
import { harmonicsChart } from "./pdf_charts.ts";
import type { FeederSummaryDto } from "./contract.ts";
import type { CustomerFacts, CustomerLogo } from "./directory.ts";
import { eventPages } from "./pdf_events.ts";
import { DEFAULT_FORMATS } from "./pdf_format.ts";
import { availability, summaryTable } from "./pdf_tables.ts";
import { PDF_TEXTS } from "./pdf_texts.ts";
import { trendPages } from "./pdf_trends.ts";
import type { ReportRow } from "./schema.ts";
import {
  A4,
  ACCENT,
  fit,
  type Formatters,
  formatters,
  MARGIN,
  MUTED,
  RULE,
  verdictColour,
  verdictText,
  WIDTH,
  Writer,
} from "./pdf_writer.ts";

/** Events listed at most (the newest of the period); the tables count all of them. */
export const MAX_LISTED_EVENTS = 300;

/** What the PDF is made of. */
export interface PdfInput {
  report: Pick<
    ReportRow,
    "name" | "language" | "nodeName" | "ewName" | "feeders" | "startAt" | "endAt" | "limitSet"
  >;
  customer: CustomerFacts;
  summary: readonly FeederSummaryDto[];
  /** The loaded series per feeder (from the 2-hour grid before the start), for the trends. */
  inputs: readonly ComplianceInput[];
  passed: boolean;
  /** The node's voltage events of the period; absent: the section is left out. */
  events?: PeriodEvents | null;
  /** The customer's logo for the cover; absent: the customer's name stands in for it. */
  logo?: CustomerLogo | null;
  createdAt?: Date;
}

/** Renders a completed report's PDF. */
export async function renderReportPdf(input: PdfInput): Promise<Uint8Array> {
  const texts = PDF_TEXTS[input.report.language];
  const r = input.report;
  const { doc, regular, bold } = await openPdf({
    title: `${texts.title}: ${r.name}`,
    language: r.language,
    author: input.customer.name,
  });
  const w = new Writer(doc, regular, bold, texts, `${texts.title} · ${r.name} · ${r.nodeName}`);
  const fmt = formatters(
    r.language,
    input.customer.formats ?? { ...DEFAULT_FORMATS, timezone: input.customer.timezone },
  );
  await cover(w, input, fmt, await embedLogo(doc, input.logo));
  const from = r.startAt.getTime();
  const to = r.endAt.getTime();
  for (const [k, feeder] of input.summary.entries()) {
    summaryTable(w, feeder, fmt);
    availability(w, feeder, fmt);
    const series = input.inputs[k];
    if (series) trendPages(w, feeder, series, from, to, fmt);
    harmonicsChart(w, feeder, fmt);
  }
  if (input.events) eventPages(w, input.events, fmt);
  w.finish(`${input.customer.name} · ${r.limitSet} · ${fmt.day(r.startAt)} – ${fmt.day(r.endAt)}`);
  return await doc.save();
}

/** The logo as an image of the document; null when none is set or it cannot be read. */
async function embedLogo(doc: PDFDocument, logo: CustomerLogo | null | undefined) {
  if (!logo) return null;
  try {
    return logo.contentType === "image/png"
      ? await doc.embedPng(logo.data)
      : await doc.embedJpg(logo.data);
  } catch {
    return null; // a logo the settings accepted but pdf-lib cannot read: the name stands in
  }
}

function cover(w: Writer, input: PdfInput, fmt: Formatters, logo: PDFImage | null): void {
  const t = w.texts;
  const r = input.report;
  const top = A4[1] - MARGIN;
  if (logo) {
    const scale = Math.min(150 / logo.width, 60 / logo.height);
    const width = logo.width * scale;
    const height = logo.height * scale;
    w.page.drawImage(logo, { x: MARGIN, y: top - height, width, height });
  } else {
    w.text(fit(w.bold, input.customer.name, 16, 300), MARGIN, {
      size: 16,
      bold: true,
      y: top - 16,
    });
  }
  w.textRight(r.limitSet, A4[0] - MARGIN, { size: 10, bold: true, color: ACCENT, y: top - 12 });
  w.textRight(fmt.date(input.createdAt ?? new Date()), A4[0] - MARGIN, {
    size: 8,
    color: MUTED,
    y: top - 26,
  });
  w.y = top - 78;
  w.page.drawRectangle({ x: MARGIN, y: w.y + 18, width: WIDTH, height: 2.5, color: ACCENT });
  w.line(0, 20);
  w.text(t.title, MARGIN, { size: 24, bold: true });
  w.line(24, 12);
  w.text(fit(w.regular, r.name, 15, WIDTH), MARGIN, { size: 15, color: MUTED });
  w.line(15, 30);
  const rows: [string, string][] = [
    [t.utility, input.customer.name],
    [t.electricalWork, r.ewName],
    [t.node, r.nodeName],
    [t.feeders, r.feeders.map((f) => f.name).join(", ")],
    [t.period, `${fmt.date(r.startAt)} – ${fmt.date(r.endAt)}`],
    [t.timezone, fmt.timezone],
    [t.standard, r.limitSet],
    [t.created, fmt.date(input.createdAt ?? new Date())],
  ];
  for (const [label, value] of rows) {
    w.text(label, MARGIN, { color: MUTED, size: 9.5 });
    w.text(fit(w.regular, value, 9.5, WIDTH - 140), MARGIN + 140, { size: 9.5 });
    w.page.drawLine({
      start: { x: MARGIN, y: w.y - 5 },
      end: { x: A4[0] - MARGIN, y: w.y - 5 },
      thickness: 0.4,
      color: RULE,
    });
    w.line(9.5, 9);
  }
  w.line(10, 14);
  const verdict = verdictText(t, input.passed);
  w.page.drawRectangle({
    x: MARGIN,
    y: w.y - 16,
    width: WIDTH,
    height: 46,
    color: input.passed ? rgb(0.9, 0.97, 0.92) : rgb(0.99, 0.91, 0.91),
    borderColor: verdictColour(input.passed),
    borderWidth: 1,
  });
  w.text(`${t.verdict}: ${verdict}`, MARGIN + 16, {
    size: 18,
    bold: true,
    color: verdictColour(input.passed),
  });
  w.line(18, 34);
  for (const feeder of input.summary) {
    w.page.drawCircle({
      x: MARGIN + 4,
      y: w.y + 3.5,
      size: 3,
      color: verdictColour(feeder.passed),
    });
    w.text(`${feeder.feeder_name}: `, MARGIN + 14, { size: 10, bold: true });
    const x = MARGIN + 14 + w.bold.widthOfTextAtSize(`${feeder.feeder_name}: `, 10);
    w.text(
      `${verdictText(t, feeder.passed)} · ${t.availability} ${
        fmt.number(feeder.availability_pct)
      } %`,
      x,
      { size: 10 },
    );
    w.line(10, 8);
  }
  if (input.events) {
    const e = input.events.tables;
    const dips = Object.values(e.dip).reduce(
      (n, row) => n + Object.values(row).reduce((a, b) => a + b, 0),
      0,
    );
    const swells = Object.values(e.swell).reduce(
      (n, row) => n + Object.values(row).reduce((a, b) => a + b, 0),
      0,
    );
    w.line(0, 6);
    const line = `${t.events}: ${fmt.integer(input.events.total)} · ${t.eventTypes.DIP} ${
      fmt.integer(dips)
    } · ${t.eventTypes.SWELL} ${fmt.integer(swells)} · ${t.interruptionsShort} ${
      fmt.integer(e.interruptions_short)
    } · ${t.interruptionsLong} ${fmt.integer(e.interruptions_long)}`;
    w.paragraph(line, { size: 8.5 });
    w.line(0, 6);
  }
  w.line(9, 10);
  w.text(t.frequencyNote, MARGIN, { size: 7.5, color: MUTED });
}
