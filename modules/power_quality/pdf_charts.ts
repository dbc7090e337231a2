/** The PDF's charts, drawn as vectors: harmonics against their limits, the voltage trend. */
import { rgb } from "pdf-lib";
import type { ComplianceInput } from "../../core/mod.ts";
import type { FeederSummaryDto } from "./contract.ts";
import {
  A4,
  BAD,
  type Formatters,
  INK,
  MARGIN,
  MUTED,
  PHASE_COLOURS,
  RULE,
  worstPhase,
  type Writer,
} from "./pdf_writer.ts";

export function harmonicsChart(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
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
export function voltageTrend(w: Writer, input: ComplianceInput, from: number, to: number): void {
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
