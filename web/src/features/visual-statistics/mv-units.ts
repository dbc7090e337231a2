/**
 * At medium voltage, voltages read in kV (9.24 kV rather than 9'238.12 V), as on the grid
 * monitoring node panel: the server answers in V and the answers are converted once, here.
 */
import type { Voltage } from "../../lib/voltage.ts";
import type { CompareAnswer, HistogramAnswer, SeriesAnswer } from "./vsm-api.ts";

const inKv = (voltage: Voltage, unit: string) => voltage === "mv" && unit === "V";
const kilo = (v: number | null) => (v === null ? null : v / 1000);

/** The unit a parameter is shown in at a voltage level. */
export const unitAt = (unit: string, voltage: Voltage) => (inKv(voltage, unit) ? "kV" : unit);

export function seriesAt(answer: SeriesAnswer, voltage: Voltage): SeriesAnswer {
  return {
    ...answer,
    charts: answer.charts.map((c) =>
      inKv(voltage, c.unit)
        ? { ...c, unit: "kV", series: c.series.map((s) => ({ ...s, values: s.values.map(kilo) })) }
        : c
    ),
  };
}

export function histogramAt(answer: HistogramAnswer, voltage: Voltage): HistogramAnswer {
  if (!inKv(voltage, answer.unit)) return answer;
  return {
    ...answer,
    unit: "kV",
    bins: answer.bins.map((b) => ({ ...b, from: b.from / 1000, to: b.to / 1000 })),
    min: answer.min / 1000,
    max: answer.max / 1000,
    mean: answer.mean / 1000,
    p05: answer.p05 / 1000,
    p95: answer.p95 / 1000,
  };
}

export function compareAt(answer: CompareAnswer, voltage: Voltage): CompareAnswer {
  if (!inKv(voltage, answer.unit)) return answer;
  return {
    ...answer,
    unit: "kV",
    feeders: answer.feeders.map((f) => ({
      ...f,
      values: f.values.map(kilo),
      summary: { min: kilo(f.summary.min), max: kilo(f.summary.max), mean: kilo(f.summary.mean) },
    })),
  };
}
