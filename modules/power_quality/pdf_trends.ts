/**
 * Per parameter (voltage, frequency, THD, Plt, unbalance): the trend over the period with the
 * limit bands and the ISO weeks, and the cumulative-probability curve of the evaluated values
 * with the 95 % (99.5 % for frequency) line and the limit.
 */
import type { ComplianceInput } from "../../core/mod.ts";
import { sliceInput, valuesOf } from "./analysis.ts";
import {
  band,
  type Box,
  envelopePath,
  frame,
  hLine,
  legend,
  niceTicks,
  polylinePath,
  stroke,
  type TimeSeries,
  vLine,
  xOf,
} from "./pdf_charts.ts";
import type { FeederSummaryDto, ParameterSummaryDto } from "./contract.ts";
import { localMidnights } from "./pdf_format.ts";
import { parameterName } from "./pdf_texts.ts";
import {
  A4,
  BAD,
  BAND_OK,
  BAND_WARN,
  fit,
  type Formatters,
  INK,
  MARGIN,
  MUTED,
  PHASE_COLOURS,
  RULE,
  verdictColour,
  verdictText,
  WIDTH,
  wrap,
  type Writer,
} from "./pdf_writer.ts";

const SLOT_MS = 600_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const TRENDED = ["voltage", "frequency", "thd", "flicker", "unbalance"] as const;
type Trended = (typeof TRENDED)[number];

/** The plotted series of a parameter (natural unit) and its limit bands. */
function seriesOf(id: Trended, input: ComplianceInput): TimeSeries[] {
  const origin = input.period.from.getTime();
  const skip = (i: number) => input.flagged[i] === 1;
  const slots = (high: ArrayLike<number>, low?: ArrayLike<number>): TimeSeries => ({
    t0: origin,
    step: SLOT_MS,
    high,
    ...(low ? { low } : {}),
    skip,
  });
  switch (id) {
    case "voltage":
      return input.u.map((s) => slots(s));
    case "frequency":
      return [slots(input.fMax, input.fMin)];
    case "thd":
      return input.thd.map((s) => slots(s));
    case "unbalance":
      return [slots(input.unbalance)];
    case "flicker":
      return input.plt.map((s) => ({
        t0: origin,
        step: 12 * SLOT_MS,
        high: s,
        skip: (k: number) => input.flagged.subarray(k * 12, (k + 1) * 12).some((f) => f === 1),
      }));
  }
}

interface Bands {
  /** Allowed band (95 % / 99.5 % of the intervals), natural unit. */
  lo: number;
  hi: number;
  /** The 100 % band, when the parameter has one. */
  lo100?: number;
  hi100?: number;
  unit: string;
  digits: number;
}

function bandsOf(id: Trended, p: ParameterSummaryDto, input: ComplianceInput): Bands {
  const pct = (base: number, v: number) => base * (1 + v / 100);
  if (id === "voltage" || id === "frequency") {
    const base = id === "voltage" ? input.nominalVoltage : input.nominalFrequency;
    return {
      lo: pct(base, -p.limit),
      hi: pct(base, p.limit),
      ...(p.limit100 ? { lo100: pct(base, p.limit100[0]), hi100: pct(base, p.limit100[1]) } : {}),
      unit: id === "voltage" ? "V" : "Hz",
      digits: id === "voltage" ? 0 : 2,
    };
  }
  return { lo: 0, hi: p.limit, unit: p.unit, digits: 2 };
}

/** The y range: the bands with some room, widened to the data. */
function yRange(id: Trended, bands: Bands, series: TimeSeries[], from: number, to: number) {
  let dataLo = Infinity;
  let dataHi = -Infinity;
  for (const s of series) {
    const first = Math.max(0, Math.floor((from - s.t0) / s.step));
    const last = Math.min(s.high.length, Math.ceil((to - s.t0) / s.step));
    for (let i = first; i < last; i++) {
      if (s.skip?.(i)) continue;
      for (const v of [s.high[i]!, s.low ? s.low[i]! : NaN]) {
        if (Number.isNaN(v)) continue;
        if (v < dataLo) dataLo = v;
        if (v > dataHi) dataHi = v;
      }
    }
  }
  if (id === "voltage") {
    const lo = Math.min(bands.lo100 ?? bands.lo, dataLo);
    const hi = Math.max(bands.hi100 ?? bands.hi, dataHi);
    const pad = (hi - lo) * 0.08;
    return [lo - pad, hi + pad] as const;
  }
  if (id === "frequency") {
    const half = (bands.hi - bands.lo) / 2;
    const mid = (bands.hi + bands.lo) / 2;
    return [Math.min(mid - half * 1.6, dataLo), Math.max(mid + half * 1.6, dataHi)] as const;
  }
  return [0, Math.max(bands.hi * 1.3, Number.isFinite(dataHi) ? dataHi * 1.1 : 0)] as const;
}

/** The time axis: ISO week lines, and day or week labels in the customer's time zone. */
function timeAxis(w: Writer, b: Box, fmt: Formatters): void {
  const firstMonday = (() => {
    const midnight = Math.ceil(b.xMin / DAY_MS) * DAY_MS;
    const back = (new Date(midnight).getUTCDay() + 6) % 7;
    return back ? midnight + (7 - back) * DAY_MS : midnight;
  })();
  for (let t = firstMonday; t < b.xMax; t += WEEK_MS) vLine(w, b, t, { color: INK, dashed: true });
  const days = (b.xMax - b.xMin) / DAY_MS;
  let ticks = days <= 16 ? localMidnights(b.xMin, b.xMax, fmt.timezone) : [];
  if (days > 16) {
    for (let t = firstMonday; t < b.xMax; t += WEEK_MS) ticks.push(t);
  }
  if (!ticks.length) ticks = [b.xMin];
  const every = Math.max(1, Math.ceil(ticks.length / 8));
  ticks.forEach((t, k) => {
    if (days <= 16) vLine(w, b, t, { thickness: 0.4, color: RULE });
    if (k % every || xOf(b, t) > b.x0 + b.width - 30) return;
    w.text(fmt.day(new Date(t)), xOf(b, t) + 1, { size: 5.5, y: b.y0 - 8, color: MUTED });
  });
}

function trend(
  w: Writer,
  id: Trended,
  p: ParameterSummaryDto,
  input: ComplianceInput,
  from: number,
  to: number,
  fmt: Formatters,
): void {
  const t = w.texts;
  const series = seriesOf(id, input);
  const bands = bandsOf(id, p, input);
  const [yMin, yMax] = yRange(id, bands, series, from, to);
  const b: Box = {
    x0: MARGIN + 30,
    y0: w.y - 118,
    width: WIDTH - 58,
    height: 118,
    xMin: from,
    xMax: to,
    yMin,
    yMax,
  };
  band(w, b, bands.lo, bands.hi, BAND_OK);
  if (bands.lo100 !== undefined && bands.lo100 < bands.lo) {
    band(w, b, bands.lo100, bands.lo, BAND_WARN);
  }
  if (bands.hi100 !== undefined && bands.hi100 > bands.hi) {
    band(w, b, bands.hi, bands.hi100, BAND_WARN);
  }
  frame(w, b, niceTicks(yMin, yMax, 5), fmt);
  timeAxis(w, b, fmt);
  const label = (v: number) => `${fmt.number(v, bands.digits)} ${bands.unit}`.trim();
  if (id !== "thd" && id !== "flicker" && id !== "unbalance") {
    hLine(w, b, bands.lo, { label: label(bands.lo) });
  }
  hLine(w, b, bands.hi, { label: label(bands.hi) });
  if (bands.lo100 !== undefined && bands.lo100 !== bands.lo) {
    hLine(w, b, bands.lo100, { dashed: true, label: label(bands.lo100) });
  }
  if (bands.hi100 !== undefined && bands.hi100 !== bands.hi) {
    hLine(w, b, bands.hi100, { dashed: true, label: label(bands.hi100) });
  }
  const visible100 = [bands.lo100, bands.hi100].some((v) =>
    v !== undefined && v !== bands.lo && v !== bands.hi && v >= yMin && v <= yMax
  );
  const bins = Math.min(Math.round(b.width * 1.5), Math.ceil((to - from) / series[0]!.step));
  series.forEach((s, k) => {
    const colour = series.length === 1 ? INK : PHASE_COLOURS[k] ?? INK;
    stroke(w, b, envelopePath(b, s, bins), colour, series.length === 1 ? 0.6 : 0.5);
  });
  w.textRight(bands.unit, b.x0 - 3, { size: 6, y: b.y0 + b.height + 4, color: MUTED });
  const entries = series.length === 1
    ? [{ label: id === "frequency" ? "f min / max" : parameterName(t, id), color: INK }]
    : series.map((_, k) => ({ label: `L${k + 1}`, color: PHASE_COLOURS[k] ?? INK }));
  legend(w, b.x0, b.y0 - 20, [
    ...entries,
    { label: t.allowed, color: BAND_OK, shaded: true },
    ...(visible100 ? [{ label: t.band100, color: BAD, dashed: true }] : []),
    { label: t.weekLine, color: INK, dashed: true },
  ]);
  w.y = b.y0 - 42;
}

/** The cumulative-probability curves (one per phase) and the per-phase figures beside them. */
function probability(
  w: Writer,
  id: Trended,
  p: ParameterSummaryDto,
  inPeriod: ComplianceInput,
  fmt: Formatters,
): void {
  const t = w.texts;
  const share = id === "frequency" ? 99.5 : 95;
  const values = valuesOf(inPeriod, id).map((v) => Float64Array.from(v).sort());
  const top = Math.max(p.limit * 1.3, ...values.map((v) => v.length ? v[v.length - 1]! : 0));
  const b: Box = {
    x0: MARGIN + 30,
    y0: w.y - 100,
    width: 250,
    height: 100,
    xMin: 0,
    xMax: top * 1.05 || 1,
    yMin: 0,
    yMax: 100,
  };
  frame(w, b, [0, 25, 50, 75, 100], fmt);
  for (const x of niceTicks(0, b.xMax, 5)) {
    if (x > b.xMax) continue;
    vLine(w, b, x, { thickness: 0.3, color: RULE });
    w.textCentre(fmt.number(x, 2), xOf(b, x), { size: 5.5, y: b.y0 - 8, color: MUTED });
  }
  hLine(w, b, share, { color: MUTED, dashed: true, label: `${fmt.number(share, 1)} %` });
  vLine(w, b, p.limit, { color: BAD, thickness: 1 });
  values.forEach((sorted, k) => {
    if (!sorted.length) return;
    const points = Math.min(sorted.length, 300);
    const xs = new Float64Array(points + 1);
    const ys = new Float64Array(points + 1);
    xs[0] = sorted[0]!;
    ys[0] = 0;
    for (let j = 1; j <= points; j++) {
      const rank = Math.max(1, Math.round((j / points) * sorted.length));
      xs[j] = sorted[rank - 1]!;
      ys[j] = (rank / sorted.length) * 100;
    }
    const colour = values.length === 1 ? INK : PHASE_COLOURS[k] ?? INK;
    stroke(w, b, polylinePath(b, xs, ys), colour, 0.9);
  });
  const xUnit = id === "voltage" || id === "frequency" ? t.deviation : p.unit;
  w.textCentre(xUnit, b.x0 + b.width / 2, { size: 6, y: b.y0 - 17, color: MUTED });
  w.textRight("%", b.x0 - 3, { size: 6, y: b.y0 + b.height + 4, color: MUTED });
  // The figures per phase, right of the curve.
  const x = b.x0 + b.width + 40;
  let y = b.y0 + b.height - 4;
  w.text(t.cdf, x, { size: 8, bold: true, y });
  y -= 11;
  for (const line of wrap(w.regular, t.cdfCaption, 6, A4[0] - MARGIN - x)) {
    w.text(line, x, { size: 6, y, color: MUTED });
    y -= 8;
  }
  y -= 6;
  const columns = [0, 30, 72, 114];
  const pLabel = id === "frequency" ? "P99.5" : "P95";
  [t.phase, pLabel, t.max, t.result].forEach((h, i) =>
    w.text(h, x + columns[i]!, { size: 6.5, bold: true, y })
  );
  y -= 10;
  for (const [k, phase] of p.phases.entries()) {
    const colour = p.phases.length === 1 ? INK : PHASE_COLOURS[k] ?? INK;
    w.text(phase.phase ?? "–", x, { size: 7, y, color: colour, bold: true });
    w.text(fmt.number(phase.value, 2), x + columns[1]!, { size: 7, y });
    w.text(fmt.number(phase.max, 2), x + columns[2]!, { size: 7, y });
    w.text(
      fit(w.regular, verdictText(t, phase.passed), 7, A4[0] - MARGIN - x - columns[3]!),
      x + columns[3]!,
      {
        size: 7,
        y,
        color: verdictColour(phase.passed),
      },
    );
    y -= 10;
  }
  if (values.every((v) => !v.length)) w.text(t.noValues, x, { size: 7, y, color: MUTED });
  w.y = b.y0 - 30;
}

/** The trend and probability pages of one feeder. */
export function trendPages(
  w: Writer,
  feeder: FeederSummaryDto,
  input: ComplianceInput,
  from: number,
  to: number,
  fmt: Formatters,
): void {
  const t = w.texts;
  const inPeriod = sliceInput(input, { from, to, full: false });
  w.newPage();
  w.heading(`${t.trends}: ${feeder.feeder_name}`);
  w.paragraph(t.trendCaption, { size: 7, color: MUTED });
  w.line(0, 6);
  for (const id of TRENDED) {
    const p = feeder.parameters.find((x) => x.parameter === id);
    if (!p) continue;
    w.need(320);
    w.subheading(`${parameterName(t, id)} · ${t.limit} ${limitOf(p, fmt)}`);
    trend(w, id, p, input, from, to, fmt);
    probability(w, id, p, inPeriod, fmt);
    w.line(0, 6);
  }
}

function limitOf(p: ParameterSummaryDto, fmt: Formatters): string {
  const unit = p.unit ? ` ${p.unit}` : "";
  const main = `${p.limit100 ? "±" : "≤ "}${fmt.number(p.limit)}${unit}`;
  const band = p.limit100
    ? ` (${fmt.number(p.limit100[0])}/+${fmt.number(p.limit100[1])}${unit})`
    : "";
  return `${main}${band} · ${fmt.number(p.share_pct, 1)} %`;
}
