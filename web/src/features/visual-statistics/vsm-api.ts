/**
 * Calls of the visual statistics API (/vsm, docs/contracts.md) and the grid structure. The
 * screens explain every failure themselves (410, 404, period errors), so no call leads to an
 * error page.
 */
import { api } from "../../lib/api.ts";
import type {
  CompareDto as CompareAnswer,
  HistogramDto as HistogramAnswer,
  ParametersDto as ParametersAnswer,
  SeriesDto as SeriesAnswer,
} from "../../../../modules/statistics/contract.ts";
import type { Voltage } from "../../lib/voltage.ts";
import { compareAt, histogramAt, seriesAt } from "./mv-units.ts";
import type { Period } from "./period.ts";
import type { Parameter, PhaseChoice } from "./selection.ts";
import type { VisualStatisticsView } from "./structure.ts";

export type {
  CompareDto as CompareAnswer,
  CompareFeederDto as CompareFeeder,
  HistogramDto as HistogramAnswer,
  ParametersDto as ParametersAnswer,
  Resolution,
  SeriesChartDto as SeriesChart,
  SeriesDto as SeriesAnswer,
  SeriesPhase,
} from "../../../../modules/statistics/contract.ts";

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
