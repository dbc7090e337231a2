/**
 * Calls of the visual statistics API (/vsm, docs/contracts.md) and the grid structure. The
 * screens explain every failure themselves (410, 404, period errors), so no call leads to an
 * error page.
 */
import { api } from "../../lib/api.ts";
import type { Voltage } from "../../lib/voltage.ts";
import { compareAt, histogramAt, seriesAt } from "./mv-units.ts";
import type { Period } from "./period.ts";
import type { Parameter, PhaseChoice } from "./selection.ts";
import type { VisualStatisticsView } from "./structure.ts";

export type Resolution = "20s" | "10min" | "1h" | "1d";
export type SeriesPhase = "L1" | "L2" | "L3" | "N";

export interface ParametersAnswer {
  parameters: { key: Parameter; unit: string; per_phase: boolean }[];
  limits: {
    max_charts: number;
    max_compare_feeders: number;
    min_compare_feeders: number;
    max_period_days: number;
    min_period_minutes: number;
  };
}

export interface SeriesChart {
  feeder_id: string;
  feeder_name: string;
  node_id: string;
  node_name: string;
  parameter: Parameter;
  unit: string;
  series: { phase: SeriesPhase | null; stat: "mean" | "min" | "max"; values: (number | null)[] }[];
}

export interface SeriesAnswer {
  from: string;
  to: string;
  resolution: Resolution;
  step_s: number;
  times: number[];
  charts: SeriesChart[];
}

export interface HistogramAnswer {
  parameter: Parameter;
  unit: string;
  resolution: Resolution;
  bins: { from: number; to: number; count: number }[];
  count: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  p05: number | null;
  p95: number | null;
}

export interface CompareFeeder {
  feeder_id: string;
  feeder_name: string;
  node_id: string;
  node_name: string;
  values: (number | null)[];
  summary: { min: number | null; max: number | null; mean: number | null };
}

export interface CompareAnswer {
  from: string;
  to: string;
  resolution: Resolution;
  step_s: number;
  times: number[];
  parameter: Parameter;
  unit: string;
  feeders: CompareFeeder[];
}

const common = (voltage: Voltage, period: Period) => ({
  level: voltage === "mv" ? "MV" : "LV",
  from: new Date(period.from).toISOString(),
  to: new Date(period.to).toISOString(),
});

export const vsmApi = {
  structure: (signal: AbortSignal) =>
    api.get<VisualStatisticsView>("/gsm/grid-structure/hv-mv-station-groups", {
      query: { view: "visual-statistics" },
      signal,
      handleErrors: true,
    }),
  parameters: (signal: AbortSignal) =>
    api.get<ParametersAnswer>("/vsm/parameters", { signal, handleErrors: true }),
  series: (
    q: { feeders: string[]; parameters: Parameter[]; voltage: Voltage; period: Period },
    signal: AbortSignal,
  ) =>
    api.get<SeriesAnswer>("/vsm/series", {
      query: {
        feeders: q.feeders.join(","),
        parameters: q.parameters.join(","),
        ...common(q.voltage, q.period),
        resolution: "auto",
      },
      signal,
      handleErrors: true,
    }).then((answer) => seriesAt(answer, q.voltage)),
  histogram: (
    q: {
      feeder: string;
      parameter: Parameter;
      phase: PhaseChoice;
      voltage: Voltage;
      period: Period;
    },
    signal: AbortSignal,
  ) =>
    api.get<HistogramAnswer>("/vsm/histogram", {
      query: {
        feeder: q.feeder,
        parameter: q.parameter,
        ...common(q.voltage, q.period),
        phase: q.phase === "all" ? undefined : q.phase,
      },
      signal,
      handleErrors: true,
    }).then((answer) => histogramAt(answer, q.voltage)),
  compare: (
    q: {
      feeders: string[];
      parameter: Parameter;
      phase: PhaseChoice;
      voltage: Voltage;
      period: Period;
    },
    signal: AbortSignal,
  ) =>
    api.get<CompareAnswer>("/vsm/compare", {
      query: {
        feeders: q.feeders.join(","),
        parameter: q.parameter,
        phase: q.phase,
        ...common(q.voltage, q.period),
        resolution: "auto",
      },
      signal,
      handleErrors: true,
    }).then((answer) => compareAt(answer, q.voltage)),
};
