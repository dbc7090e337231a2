/**
 * The PDF of a report, made in the process with pdf-lib: vector text in an embedded DejaVu Sans
 * (Latin and Cyrillic, so the text can be extracted in all four languages), vector charts.
 * Pages: cover (utility, node, period, standard, verdict), summary per feeder (parameter x
 * phase: limit, 95th percentile / max, N, N1, N2, flagged, missing, verdict), data availability
 * and weeks, harmonics bar chart, voltage trend.
 */
import { rgb } from "pdf-lib";
import { openPdf } from "../../kernel/mod.ts";
import type { ComplianceInput } from "../../core/mod.ts";
import { harmonicsChart, voltageTrend } from "./pdf_charts.ts";
import type { FeederSummaryDto, ParameterSummaryDto } from "./contract.ts";
import type { CustomerFacts } from "./directory.ts";
import { parameterName, PDF_TEXTS } from "./pdf_texts.ts";
import type { ReportRow } from "./schema.ts";
import {
  A4,
  fit,
  type Formatters,
  formatters,
  INK,
  MARGIN,
  MUTED,
  verdictColour,
  verdictText,
  worstPhase,
  Writer,
} from "./pdf_writer.ts";

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

/** Renders a completed report's PDF. */
export async function renderReportPdf(input: PdfInput): Promise<Uint8Array> {
  const texts = PDF_TEXTS[input.report.language];
  const { doc, regular, bold } = await openPdf({
    title: `${texts.title}: ${input.report.name}`,
    language: input.report.language,
  });
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

const COLUMNS = [0, 100, 126, 200, 245, 285, 322, 352, 380, 430] as const;

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
    w.text(verdictText(t, week.passed), MARGIN + 300, {
      size: 8,
      color: verdictColour(week.passed),
    });
    if (week.failed.length) {
      w.line(8, 3);
      const names = week.failed.map((p) => parameterName(t, p)).join(", ");
      w.text(
        fit(w.regular, `${t.failedParameters}: ${names}`, 7, A4[0] - 2 * MARGIN - 12),
        MARGIN + 12,
        {
          size: 7,
          color: MUTED,
        },
      );
    }
    w.line(8, 5);
  }
}
