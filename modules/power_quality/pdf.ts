/**
 * The PDF of a report, made in the process with pdf-lib: vector text in an embedded DejaVu Sans
 * (Latin and Cyrillic, so the text can be extracted in all four languages), vector charts.
 * Pages: cover (utility, node, period, standard, verdict), summary per feeder (parameter x
 * phase: limit, 95th percentile / max, N, N1, N2, flagged, missing, verdict), data availability
 * and weeks, harmonics bar chart, voltage trend.
 */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { ComplianceInput } from "../../core/mod.ts";
import type { FeederSummaryDto, ParameterSummaryDto } from "./contract.ts";
import type { CustomerFacts } from "./directory.ts";
import { parameterName, PDF_TEXTS, type PdfTexts } from "./pdf_texts.ts";
import type { ReportRow } from "./schema.ts";

const FONT_DIR = new URL("../../node_modules/dejavu-fonts-ttf/ttf/", import.meta.url);
let fonts: Promise<[Uint8Array, Uint8Array]> | undefined;
const loadFonts = () =>
  fonts ??= Promise.all([
    Deno.readFile(new URL("DejaVuSans.ttf", FONT_DIR)),
    Deno.readFile(new URL("DejaVuSans-Bold.ttf", FONT_DIR)),
  ]);

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.42, 0.45, 0.5);
const RULE = rgb(0.85, 0.87, 0.9);
const GOOD = rgb(0.09, 0.5, 0.27);
const BAD = rgb(0.75, 0.12, 0.12);
const PHASE_COLOURS = [rgb(0.85, 0.15, 0.15), rgb(0.15, 0.35, 0.85), rgb(0.1, 0.6, 0.25)];

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
  createdAt?: Date;
}

/** A page being written top to bottom. */
class Writer {
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

/** Renders a completed report's PDF. */
export async function renderReportPdf(input: PdfInput): Promise<Uint8Array> {
  const texts = PDF_TEXTS[input.report.language];
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await loadFonts();
  const regular = await doc.embedFont(regularBytes, { subset: true });
  const bold = await doc.embedFont(boldBytes, { subset: true });
  doc.setTitle(`${texts.title}: ${input.report.name}`);
  doc.setLanguage(input.report.language);
  doc.setProducer("GridWatch");
  const w = new Writer(doc, regular, bold, texts);
  const fmt = formatters(input.report.language, input.customer.timezone);
  cover(w, input, fmt);
  for (const [k, feeder] of input.summary.entries()) {
    summaryTable(w, feeder, fmt);
    availability(w, feeder, fmt);
    harmonicsChart(w, feeder, fmt);
    const series = input.inputs[k];
    if (series) {
      voltageTrend(w, series, input.report.startAt.getTime(), input.report.endAt.getTime());
    }
  }
  return await doc.save();
}

interface Formatters {
  number(v: number | null, digits?: number): string;
  date(d: Date): string;
}

function formatters(language: string, timeZone: string): Formatters {
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

function verdictText(texts: PdfTexts, passed: boolean | null): string {
  return passed === true ? texts.passed : passed === false ? texts.notPassed : texts.notEvaluable;
}

function verdictColour(passed: boolean | null) {
  return passed === true ? GOOD : passed === false ? BAD : MUTED;
}

function cover(w: Writer, input: PdfInput, fmt: Formatters): void {
  const t = w.texts;
  const r = input.report;
  w.text(input.customer.name, MARGIN, { size: 11, color: MUTED });
  w.line(11, 20);
  w.text(t.title, MARGIN, { size: 22, bold: true });
  w.line(22, 10);
  w.text(r.name, MARGIN, { size: 14 });
  w.line(14, 24);
  const rows: [string, string][] = [
    [t.utility, input.customer.name],
    [t.electricalWork, r.ewName],
    [t.node, r.nodeName],
    [t.feeders, r.feeders.map((f) => f.name).join(", ")],
    [t.period, `${fmt.date(r.startAt)} – ${fmt.date(r.endAt)}`],
    [t.timezone, input.customer.timezone],
    [t.standard, r.limitSet],
    [t.created, fmt.date(input.createdAt ?? new Date())],
  ];
  for (const [label, value] of rows) {
    w.text(label, MARGIN, { color: MUTED, size: 10 });
    w.text(value, MARGIN + 120, { size: 10 });
    w.line(10, 8);
  }
  w.line(10, 12);
  const verdict = verdictText(t, input.passed);
  w.page.drawRectangle({
    x: MARGIN,
    y: w.y - 10,
    width: A4[0] - 2 * MARGIN,
    height: 34,
    color: input.passed ? rgb(0.9, 0.97, 0.92) : rgb(0.99, 0.91, 0.91),
  });
  w.text(`${t.verdict}: ${verdict}`, MARGIN + 12, {
    size: 16,
    bold: true,
    color: verdictColour(input.passed),
  });
  w.line(16, 24);
  for (const feeder of input.summary) {
    w.text(
      `${feeder.feeder_name}: ${verdictText(t, feeder.passed)} · ${t.availability} ${
        fmt.number(feeder.availability_pct)
      } %`,
      MARGIN,
      { size: 10 },
    );
    w.line(10, 6);
  }
  w.line(9, 6);
  w.text(t.frequencyNote, MARGIN, { size: 8, color: MUTED });
}

const COLUMNS = [0, 100, 128, 205, 250, 290, 330, 362, 392, 432] as const;

function limitText(p: ParameterSummaryDto, fmt: Formatters): string {
  const main = `${p.unit === "%" && p.limit100 ? "±" : "≤ "}${fmt.number(p.limit)}${
    p.unit ? " " + p.unit : ""
  }`;
  return p.limit100 ? `${main} (${fmt.number(p.limit100[0])}/+${fmt.number(p.limit100[1])})` : main;
}

function summaryTable(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  w.newPage();
  w.heading(`${t.summary}: ${feeder.feeder_name}`);
  const header = [
    t.parameter,
    t.phase,
    t.limit,
    t.value,
    t.max,
    "N",
    "N1",
    "N2",
    t.flagged,
    t.result,
  ];
  const row = (cells: string[], options: { bold?: boolean; colour?: ReturnType<typeof rgb> }) => {
    w.need(14);
    cells.forEach((cell, i) =>
      w.text(cell, MARGIN + COLUMNS[i]!, {
        size: 7.5,
        bold: options.bold ?? false,
        color: i === cells.length - 1 && options.colour ? options.colour : INK,
      })
    );
    w.line(7.5, 4);
  };
  row(header, { bold: true });
  w.rule();
  for (const p of feeder.parameters) {
    const harmonic = p.parameter.startsWith("h");
    // Harmonics: one row for the worst phase; the others: one row per phase.
    const phases = harmonic ? [worstPhase(p)] : p.phases;
    for (const phase of phases) {
      row([
        parameterName(t, p.parameter),
        phase.phase ?? "–",
        limitText(p, fmt),
        fmt.number(phase.value),
        fmt.number(phase.max),
        String(phase.n),
        String(phase.n1),
        phase.n2 === null ? "–" : String(phase.n2),
        String(phase.flagged),
        verdictText(t, phase.passed),
      ], { colour: verdictColour(phase.passed) });
    }
  }
}

function worstPhase(p: ParameterSummaryDto) {
  return p.phases.reduce((w, x) => ((x.value ?? -1) > (w.value ?? -1) ? x : w), p.phases[0]!);
}

function availability(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  w.heading(t.availability);
  w.text(`${t.availabilityText}: ${fmt.number(feeder.availability_pct)} %`, MARGIN, { size: 9 });
  w.line(9, 6);
  const voltage = feeder.parameters[0]!;
  w.text(
    `${t.intervals}: ${feeder.slots} · ${t.valid}: ${voltage.n} · ${t.flagged}: ${feeder.flagged} · ${t.missing}: ${feeder.missing}`,
    MARGIN,
    { size: 9 },
  );
  w.line(9, 10);
  w.heading(t.weeks);
  for (const week of feeder.weeks) {
    w.need(14);
    const label = week.full ? t.week : t.part;
    w.text(`${label} ${fmt.date(new Date(week.from))} – ${fmt.date(new Date(week.to))}`, MARGIN, {
      size: 8,
    });
    w.text(verdictText(t, week.passed), MARGIN + 260, {
      size: 8,
      color: verdictColour(week.passed),
    });
    if (week.failed.length) {
      w.text(
        `${t.failedParameters}: ${week.failed.map((p) => parameterName(t, p)).join(", ")}`,
        MARGIN + 330,
        { size: 7, color: MUTED },
      );
    }
    w.line(8, 5);
  }
}

function harmonicsChart(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  const harmonics = feeder.parameters.filter((p) => p.parameter.startsWith("h"));
  w.need(230);
  w.heading(t.harmonics);
  w.text(t.harmonicsText, MARGIN, { size: 8, color: MUTED });
  w.line(8, 10);
  const height = 150;
  const width = A4[0] - 2 * MARGIN - 30;
  const x0 = MARGIN + 30;
  const y0 = w.y - height;
  const top = Math.max(...harmonics.map((p) => Math.max(p.limit, worstPhase(p).value ?? 0)), 1);
  const scale = height / (top * 1.1);
  w.page.drawLine({
    start: { x: x0, y: y0 },
    end: { x: x0 + width, y: y0 },
    thickness: 0.6,
    color: MUTED,
  });
  w.page.drawLine({
    start: { x: x0, y: y0 },
    end: { x: x0, y: y0 + height },
    thickness: 0.6,
    color: MUTED,
  });
  for (const tick of [0, top / 2, top]) {
    w.text(fmt.number(tick, 1), MARGIN, { size: 6, y: y0 + tick * scale - 2, color: MUTED });
  }
  const slot = width / harmonics.length;
  harmonics.forEach((p, i) => {
    const value = worstPhase(p).value ?? 0;
    const x = x0 + i * slot + slot * 0.2;
    w.page.drawRectangle({
      x,
      y: y0,
      width: slot * 0.6,
      height: Math.max(0, value * scale),
      color: p.passed === false ? BAD : rgb(0.3, 0.45, 0.75),
    });
    w.page.drawLine({
      start: { x: x - slot * 0.15, y: y0 + p.limit * scale },
      end: { x: x + slot * 0.75, y: y0 + p.limit * scale },
      thickness: 1.2,
      color: BAD,
    });
    w.text(p.parameter.slice(1), x, { size: 6, y: y0 - 9, color: MUTED });
  });
  w.y = y0 - 24;
}

const DAY_MS = 86_400_000;
const SLOT_MS = 600_000;

/** Daily min and max of each phase's 10-minute voltage, with the ±10 % and -15 % lines. */
function voltageTrend(w: Writer, input: ComplianceInput, from: number, to: number): void {
  const t = w.texts;
  w.need(240);
  w.heading(t.trend);
  w.text(t.trendText, MARGIN, { size: 8, color: MUTED });
  w.line(8, 10);
  const un = input.nominalVoltage;
  const origin = input.period.from.getTime();
  const days = Math.max(1, Math.ceil((to - from) / DAY_MS));
  const height = 160;
  const width = A4[0] - 2 * MARGIN - 36;
  const x0 = MARGIN + 36;
  const y0 = w.y - height;
  const lo = un * 0.8;
  const hi = un * 1.15;
  const yOf = (v: number) => y0 + ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * height;
  const xOf = (day: number) => x0 + (day / days) * width;
  w.page.drawRectangle({ x: x0, y: y0, width, height, borderColor: RULE, borderWidth: 0.6 });
  for (const [pct, dash] of [[10, false], [-10, false], [-15, true]] as const) {
    const v = un * (1 + pct / 100);
    w.page.drawLine({
      start: { x: x0, y: yOf(v) },
      end: { x: x0 + width, y: yOf(v) },
      thickness: 0.8,
      color: BAD,
      ...(dash ? { dashArray: [3, 3] } : {}),
    });
    w.text(`${Math.round(v)} V`, MARGIN, { size: 6, y: yOf(v) - 2, color: MUTED });
  }
  w.text(`${Math.round(un)} V`, MARGIN, { size: 6, y: yOf(un) - 2, color: MUTED });
  input.u.forEach((series, phase) => {
    for (let day = 0; day < days; day++) {
      const a = Math.max(0, Math.round((from + day * DAY_MS - origin) / SLOT_MS));
      const b = Math.min(series.length, Math.round((from + (day + 1) * DAY_MS - origin) / SLOT_MS));
      let min = Infinity;
      let max = -Infinity;
      for (let i = a; i < b; i++) {
        const v = series[i]!;
        if (Number.isNaN(v)) continue;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (min > max) continue;
      const x = xOf(day + 0.5) + (phase - 1) * Math.min(4, width / days / 4);
      w.page.drawLine({
        start: { x, y: yOf(min) },
        end: { x, y: yOf(max) },
        thickness: Math.max(0.8, Math.min(3, width / days / 5)),
        color: PHASE_COLOURS[phase] ?? INK,
      });
    }
  });
  ["L1", "L2", "L3"].slice(0, input.u.length).forEach((label, i) => {
    w.text(label, x0 + i * 40, { size: 7, y: y0 - 12, color: PHASE_COLOURS[i] ?? INK });
  });
  w.y = y0 - 28;
}
