/**
 * The PDF's tables of one feeder: the summary per parameter and phase (limit, 95th percentile /
 * max, N, N1, N2, flagged, missing, verdict), the data availability and the weeks.
 */
import { rgb } from "pdf-lib";
import type { FeederSummaryDto, ParameterSummaryDto } from "./contract.ts";
import { parameterName } from "./pdf_texts.ts";
import {
  A4,
  ACCENT,
  fit,
  type Formatters,
  INK,
  MARGIN,
  MUTED,
  RULE,
  SHADE,
  verdictColour,
  verdictText,
  WIDTH,
  worstPhase,
  type Writer,
} from "./pdf_writer.ts";

/** The limit as the summary writes it: "±10 % (-15/+10)", "≤ 8 %". */
export function limitText(p: ParameterSummaryDto, fmt: Formatters): string {
  const main = `${p.unit === "%" && p.limit100 ? "±" : "≤ "}${fmt.number(p.limit)}${
    p.unit ? " " + p.unit : ""
  }`;
  return p.limit100 ? `${main} (${fmt.number(p.limit100[0])}/+${fmt.number(p.limit100[1])})` : main;
}

/** Left edges of the text columns and right edges of the number columns. */
const LEFT = { parameter: 0, phase: 94, limit: 120, result: 452 } as const;
const RIGHT = [236, 274, 316, 346, 372, 410, 446] as const;

export function summaryTable(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  w.newPage();
  w.heading(`${t.summary}: ${feeder.feeder_name}`);
  const size = 7.2;
  const header = () => {
    w.page.drawRectangle({ x: MARGIN, y: w.y - 4, width: WIDTH, height: 14, color: SHADE });
    const bold = { size: 6.8, bold: true, color: ACCENT };
    w.text(t.parameter, MARGIN + LEFT.parameter + 2, bold);
    w.text(t.phase, MARGIN + LEFT.phase, bold);
    w.text(t.limit, MARGIN + LEFT.limit, bold);
    [t.value, t.max, "N", "N1", "N2", t.flagged, t.missing].forEach((h, i) =>
      w.textRight(fit(w.bold, h, 6.8, i === 0 ? 50 : 40), MARGIN + RIGHT[i]!, bold)
    );
    w.text(t.result, MARGIN + LEFT.result, bold);
    w.line(7, 7);
  };
  header();
  let k = 0;
  for (const p of feeder.parameters) {
    const harmonic = p.parameter.startsWith("h");
    // Harmonics: one row for the worst phase; the others: one row per phase.
    const phases = harmonic ? [worstPhase(p)] : p.phases;
    for (const [j, phase] of phases.entries()) {
      if (w.y - 12 < MARGIN) {
        w.newPage();
        header();
      }
      if (k++ % 2 === 1) {
        w.page.drawRectangle({ x: MARGIN, y: w.y - 3, width: WIDTH, height: 11, color: SHADE });
      }
      if (j === 0) {
        w.text(parameterName(t, p.parameter), MARGIN + LEFT.parameter + 2, { size, bold: true });
        w.text(fit(w.regular, limitText(p, fmt), size, 72), MARGIN + LEFT.limit, { size });
      }
      w.text(phase.phase ?? "–", MARGIN + LEFT.phase, { size });
      const numbers = [
        fmt.number(phase.value),
        fmt.number(phase.max),
        fmt.integer(phase.n),
        fmt.integer(phase.n1),
        phase.n2 === null ? "–" : fmt.integer(phase.n2),
        fmt.integer(phase.flagged),
        fmt.integer(phase.missing),
      ];
      numbers.forEach((v, i) => w.textRight(v, MARGIN + RIGHT[i]!, { size }));
      w.text(fit(w.bold, verdictText(t, phase.passed), size, 46), MARGIN + LEFT.result, {
        size,
        bold: true,
        color: verdictColour(phase.passed),
      });
      w.line(size, 4);
    }
  }
  w.rule();
  w.line(0, 4);
  w.text(t.frequencyNote, MARGIN, {
    size: 6.5,
    color: MUTED,
  });
  w.line(6.5, 4);
}

export function availability(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  w.heading(t.availability, 120);
  const voltage = feeder.parameters[0]!;
  // A bar: valid, flagged and missing shares of the period's intervals.
  const shares = [
    { n: voltage.n, colour: rgb(0.3, 0.62, 0.42), label: t.valid },
    { n: feeder.flagged, colour: rgb(0.95, 0.68, 0.25), label: t.flagged },
    { n: feeder.missing, colour: rgb(0.75, 0.77, 0.8), label: t.missing },
  ];
  const total = Math.max(1, feeder.slots);
  let x = MARGIN;
  for (const s of shares) {
    const width = (s.n / total) * WIDTH;
    if (width > 0) {
      w.page.drawRectangle({ x, y: w.y - 4, width, height: 12, color: s.colour });
    }
    x += width;
  }
  w.page.drawRectangle({
    x: MARGIN,
    y: w.y - 4,
    width: WIDTH,
    height: 12,
    borderColor: RULE,
    borderWidth: 0.5,
  });
  w.line(12, 8);
  w.text(`${t.availabilityText}: ${fmt.number(feeder.availability_pct)} %`, MARGIN, {
    size: 8.5,
    bold: true,
  });
  w.line(9, 6);
  let at = MARGIN;
  const items = [
    [t.intervals, feeder.slots, INK] as const,
    ...shares.map((s) => [s.label, s.n, s.colour] as const),
  ];
  for (const [label, n, colour] of items) {
    w.page.drawRectangle({ x: at, y: w.y, width: 6, height: 6, color: colour });
    const text = `${label}: ${fmt.integer(n)}`;
    w.text(text, at + 9, { size: 8 });
    at += 9 + w.regular.widthOfTextAtSize(text, 8) + 16;
  }
  w.line(8, 10);
  w.heading(t.weeks, 60);
  for (const week of feeder.weeks) {
    w.need(22);
    const label = week.full ? t.week : t.part;
    w.text(`${label} ${fmt.date(new Date(week.from))} – ${fmt.date(new Date(week.to))}`, MARGIN, {
      size: 8,
    });
    w.text(verdictText(t, week.passed), MARGIN + 300, {
      size: 8,
      bold: true,
      color: verdictColour(week.passed),
    });
    if (week.failed.length) {
      w.line(8, 3);
      const names = week.failed.map((p) => parameterName(t, p)).join(", ");
      w.text(
        fit(w.regular, `${t.failedParameters}: ${names}`, 7, A4[0] - 2 * MARGIN - 12),
        MARGIN + 12,
        { size: 7, color: MUTED },
      );
    }
    w.line(8, 5);
  }
}
