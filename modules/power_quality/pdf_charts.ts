/**
 * The PDF's chart parts, drawn as vectors (lines, rectangles and SVG paths, no images): the
 * plot frame with its ticks, the min/max envelope of a long series, and the harmonics bar chart
 * against the limits.
 */
import { type Color, rgb } from "pdf-lib";
import type { FeederSummaryDto } from "./contract.ts";
import {
  BAD,
  type Formatters,
  INK,
  MARGIN,
  MUTED,
  RULE,
  WIDTH,
  worstPhase,
  type Writer,
} from "./pdf_writer.ts";

/** A plot area in page coordinates (x0, y0: bottom left) and its value ranges. */
export interface Box {
  x0: number;
  y0: number;
  width: number;
  height: number;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

export const xOf = (b: Box, v: number) => b.x0 + ((v - b.xMin) / (b.xMax - b.xMin)) * b.width;
export const yOf = (b: Box, v: number) =>
  b.y0 + ((Math.min(b.yMax, Math.max(b.yMin, v)) - b.yMin) / (b.yMax - b.yMin)) * b.height;

/** About `count` round tick values covering `[lo, hi]`. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    out.push(Math.round(v / step) * step);
  }
  return out;
}

/** Draws the frame, the horizontal grid and the y labels of a box. */
export function frame(w: Writer, b: Box, yTicks: readonly number[], fmt: Formatters): void {
  const digits = yTicks.length > 1 && Math.abs(yTicks[1]! - yTicks[0]!) < 1 ? 2 : 1;
  for (const v of yTicks) {
    if (v < b.yMin || v > b.yMax) continue;
    const y = yOf(b, v);
    w.page.drawLine({
      start: { x: b.x0, y },
      end: { x: b.x0 + b.width, y },
      thickness: 0.3,
      color: RULE,
    });
    w.textRight(fmt.number(v, digits), b.x0 - 3, { size: 6, y: y - 2, color: MUTED });
  }
  w.page.drawRectangle({
    x: b.x0,
    y: b.y0,
    width: b.width,
    height: b.height,
    borderColor: MUTED,
    borderWidth: 0.5,
  });
}

/** A shaded horizontal band between two values (clipped to the box). */
export function band(w: Writer, b: Box, lo: number, hi: number, color: Color): void {
  const y1 = yOf(b, Math.max(lo, b.yMin));
  const y2 = yOf(b, Math.min(hi, b.yMax));
  if (y2 <= y1) return;
  w.page.drawRectangle({ x: b.x0, y: y1, width: b.width, height: y2 - y1, color });
}

/** A horizontal limit line with its label at the right, when inside the box. */
export function hLine(
  w: Writer,
  b: Box,
  value: number,
  options: { color?: Color; dashed?: boolean; label?: string; thickness?: number } = {},
): void {
  if (value < b.yMin || value > b.yMax) return;
  const y = yOf(b, value);
  w.page.drawLine({
    start: { x: b.x0, y },
    end: { x: b.x0 + b.width, y },
    thickness: options.thickness ?? 0.8,
    color: options.color ?? BAD,
    ...(options.dashed ? { dashArray: [3, 2] } : {}),
  });
  if (options.label) {
    w.text(options.label, b.x0 + b.width + 3, { size: 5.5, y: y - 2, color: options.color ?? BAD });
  }
}

/** A vertical line at x value `v`. */
export function vLine(
  w: Writer,
  b: Box,
  v: number,
  options: { color?: Color; dashed?: boolean; thickness?: number } = {},
): void {
  if (v < b.xMin || v > b.xMax) return;
  const x = xOf(b, v);
  w.page.drawLine({
    start: { x, y: b.y0 },
    end: { x, y: b.y0 + b.height },
    thickness: options.thickness ?? 0.4,
    color: options.color ?? MUTED,
    ...(options.dashed ? { dashArray: [1.5, 2] } : {}),
  });
}

/** Strokes an SVG path given in box coordinates (x right, y up) as one vector path. */
export function stroke(w: Writer, b: Box, d: string, color: Color, thickness = 0.7): void {
  if (!d) return;
  // drawSvgPath's y axis points down from its origin: the origin is the box's top left.
  w.page.drawSvgPath(d, {
    x: b.x0,
    y: b.y0 + b.height,
    borderColor: color,
    borderWidth: thickness,
    borderLineCap: 1,
  });
}

/** One series as the plot draws it: values at times `t0 + i * step`, optional lower values. */
export interface TimeSeries {
  t0: number;
  step: number;
  high: ArrayLike<number>;
  low?: ArrayLike<number>;
  /** Slots not evaluated (flagged); indices of `high` at `t0 + i * step`. */
  skip?: (i: number) => boolean;
}

/**
 * The min/max envelope of a series over the box's time range, `bins` steps wide, as an SVG path
 * in box coordinates: each step a vertical stroke from its minimum to its maximum, joined to the
 * next; missing steps break the path. Extremes are kept however long the period.
 */
export function envelopePath(b: Box, s: TimeSeries, bins: number): string {
  const span = b.xMax - b.xMin;
  const lo = new Float64Array(bins).fill(Infinity);
  const hi = new Float64Array(bins).fill(-Infinity);
  const first = Math.max(0, Math.floor((b.xMin - s.t0) / s.step));
  const last = Math.min(s.high.length, Math.ceil((b.xMax - s.t0) / s.step));
  for (let i = first; i < last; i++) {
    if (s.skip?.(i)) continue;
    const h = s.high[i]!;
    const l = s.low ? s.low[i]! : h;
    if (Number.isNaN(h) && Number.isNaN(l)) continue;
    const t = s.t0 + (i + 0.5) * s.step;
    const k = Math.min(bins - 1, Math.max(0, Math.floor(((t - b.xMin) / span) * bins)));
    const top = Number.isNaN(h) ? l : h;
    const bottom = Number.isNaN(l) ? h : l;
    if (bottom < lo[k]!) lo[k] = bottom;
    if (top > hi[k]!) hi[k] = top;
  }
  const px = (k: number) => (((k + 0.5) / bins) * b.width).toFixed(2);
  const py = (v: number) => (b.height - (yOf(b, v) - b.y0)).toFixed(2);
  let d = "";
  let open = false;
  for (let k = 0; k < bins; k++) {
    if (lo[k] === Infinity) {
      open = false;
      continue;
    }
    d += `${open ? "L" : "M"}${px(k)} ${py(lo[k]!)}`;
    if (hi[k] !== lo[k]) d += `L${px(k)} ${py(hi[k]!)}`;
    open = true;
  }
  return d;
}

/** A polyline of (x, y) value points as an SVG path in box coordinates. */
export function polylinePath(b: Box, xs: ArrayLike<number>, ys: ArrayLike<number>): string {
  let d = "";
  for (let k = 0; k < xs.length; k++) {
    const x = ((Math.min(b.xMax, Math.max(b.xMin, xs[k]!)) - b.xMin) / (b.xMax - b.xMin)) *
      b.width;
    const y = b.height - (yOf(b, ys[k]!) - b.y0);
    d += `${k ? "L" : "M"}${x.toFixed(2)} ${y.toFixed(2)}`;
  }
  return d;
}

/** A small legend: coloured strokes and their labels, from `x` on one line at `y`. */
export function legend(
  w: Writer,
  x: number,
  y: number,
  entries: readonly { label: string; color: Color; shaded?: boolean; dashed?: boolean }[],
): void {
  let at = x;
  for (const e of entries) {
    if (e.shaded) {
      w.page.drawRectangle({ x: at, y: y - 1, width: 12, height: 6, color: e.color });
    } else {
      w.page.drawLine({
        start: { x: at, y: y + 2 },
        end: { x: at + 12, y: y + 2 },
        thickness: 1.4,
        color: e.color,
        ...(e.dashed ? { dashArray: [3, 2] } : {}),
      });
    }
    w.text(e.label, at + 15, { size: 6.5, y, color: INK });
    at += 15 + w.regular.widthOfTextAtSize(e.label, 6.5) + 12;
  }
}

export function harmonicsChart(w: Writer, feeder: FeederSummaryDto, fmt: Formatters): void {
  const t = w.texts;
  const harmonics = feeder.parameters.filter((p) => p.parameter.startsWith("h"));
  if (!harmonics.length) return;
  w.heading(t.harmonics, 230);
  w.text(t.harmonicsText, MARGIN, { size: 8, color: MUTED });
  w.line(8, 12);
  const top = Math.max(...harmonics.map((p) => Math.max(p.limit, worstPhase(p).value ?? 0)), 1);
  const b: Box = {
    x0: MARGIN + 30,
    y0: w.y - 150,
    width: WIDTH - 30,
    height: 150,
    xMin: 0,
    xMax: harmonics.length,
    yMin: 0,
    yMax: top * 1.1,
  };
  frame(w, b, niceTicks(0, top * 1.1, 5), fmt);
  const slot = b.width / harmonics.length;
  harmonics.forEach((p, i) => {
    const value = worstPhase(p).value ?? 0;
    const x = b.x0 + i * slot + slot * 0.2;
    w.page.drawRectangle({
      x,
      y: b.y0,
      width: slot * 0.6,
      height: Math.max(0, yOf(b, value) - b.y0),
      color: p.passed === false ? BAD : rgb(0.3, 0.45, 0.75),
    });
    w.page.drawLine({
      start: { x: x - slot * 0.15, y: yOf(b, p.limit) },
      end: { x: x + slot * 0.75, y: yOf(b, p.limit) },
      thickness: 1.2,
      color: BAD,
    });
    w.textCentre(p.parameter.slice(1), x + slot * 0.3, { size: 6, y: b.y0 - 9, color: MUTED });
  });
  legend(w, b.x0, b.y0 - 22, [
    { label: t.value.split(" ")[0]!, color: rgb(0.3, 0.45, 0.75), shaded: true },
    { label: t.limit, color: BAD },
  ]);
  w.y = b.y0 - 34;
}
