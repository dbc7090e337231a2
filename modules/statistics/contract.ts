/**
 * The visual statistics contract (vsm): the parameters and levels of the answers, the queries of
 * the series, histogram and compare calls and their answers, shared with the web app (types with
 * `import type`). Pure: imports only zod.
 */
import { z } from "zod";

/** The measured quantities (the streaming core's parameter table has the same keys). */
export const STATISTICS_PARAMETER_KEYS = [
  "u",
  "i",
  "p",
  "q",
  "pf",
  "thd_u",
  "thd_i",
  "f",
  "unbalance",
  "pst",
  "plt",
] as const;
export type StatisticsParameterKey = (typeof STATISTICS_PARAMETER_KEYS)[number];

/** The levels an answer is read from: 20-s values, 10-minute, hourly or daily aggregates. */
export const RESOLUTIONS = ["20s", "10min", "1h", "1d"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** The phases of a curve (N: current only). */
export const SERIES_PHASES = ["L1", "L2", "L3", "N"] as const;
export type SeriesPhase = (typeof SERIES_PHASES)[number];
/** A phase of the histogram and compare calls, or the feeder's phases combined. */
export const PHASE_CHOICES = ["all", "L1", "L2", "L3"] as const;
export type PhaseChoice = (typeof PHASE_CHOICES)[number];

/** Bins of a histogram: 1 to 100, 40 by default. */
export const HISTOGRAM_BINS = Object.freeze({ min: 1, max: 100, default: 40 });
/** Spec 9: compare takes 2 to 10 feeders. */
export const COMPARE_FEEDERS = Object.freeze({ min: 2, max: 10 });

/** A comma-separated list, trimmed, without empty items or repeats (order kept). */
const list = (maxChars: number) =>
  z.string().max(maxChars).transform((text) => [
    ...new Set(text.split(",").map((item) => item.trim()).filter(Boolean)),
  ]);
const feederId = z.string().max(64);
const parameter = z.enum(STATISTICS_PARAMETER_KEYS);
const period = {
  /** ISO instants; the period is checked by the service (codes 401-403). */
  from: z.string().max(64),
  to: z.string().max(64),
  level: z.enum(["LV", "MV"]).default("LV"),
};
const resolution = z.enum(["auto", ...RESOLUTIONS]).default("auto");

/** `GET /vsm/series`: feeders and parameters as comma lists. */
export const seriesQuery = z.strictObject({
  ...period,
  feeders: list(2_000).pipe(z.array(feederId).min(1)),
  parameters: list(200).pipe(z.array(parameter).min(1)),
  resolution,
});
export type SeriesQuery = z.output<typeof seriesQuery>;

/** `GET /vsm/histogram`: one feeder's parameter, one phase or all. */
export const histogramQuery = z.strictObject({
  ...period,
  feeder: feederId.min(1),
  parameter,
  phase: z.enum(["L1", "L2", "L3"]).optional(),
  bins: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(
    z.number().int().min(HISTOGRAM_BINS.min).max(HISTOGRAM_BINS.max),
  ).optional(),
});
export type HistogramQuery = z.output<typeof histogramQuery>;

/** `GET /vsm/compare`: 2 to 10 feeders (the service's rule, with its own message). */
export const compareQuery = z.strictObject({
  ...period,
  feeders: list(2_000).pipe(z.array(feederId)),
  parameter,
  phase: z.enum(PHASE_CHOICES).default("all"),
  resolution,
});
export type CompareQuery = z.output<typeof compareQuery>;

const limits = z.object({
  /** Charts of one series request (feeders x parameters). */
  max_charts: z.number(),
  max_compare_feeders: z.number(),
  min_compare_feeders: z.number(),
  max_period_days: z.number(),
  min_period_minutes: z.number(),
});
/** Limits of spec 5 and 9 the forms mirror. */
export type StatisticsLimits = z.output<typeof limits>;

/** `GET /vsm/parameters`: what can be charted, and the limits. */
export const parametersDto = z.object({
  parameters: z.array(z.object({ key: parameter, unit: z.string(), per_phase: z.boolean() })),
  limits,
}).meta({ id: "StatisticsParametersDto" });
export type ParametersDto = z.output<typeof parametersDto>;

const feederNames = {
  feeder_id: z.string(),
  feeder_name: z.string(),
  node_id: z.string(),
  node_name: z.string(),
};
const timeAxis = {
  from: z.string(),
  to: z.string(),
  resolution: z.enum(RESOLUTIONS),
  step_s: z.number(),
  /** Slot starts, epoch ms. */
  times: z.array(z.number()),
};
const values = z.array(z.number().nullable());

/** One curve of a chart. */
export const seriesLineDto = z.object({
  phase: z.enum(SERIES_PHASES).nullable(),
  stat: z.enum(["mean", "min", "max"]),
  /** One value per slot; null is a gap. */
  values,
});
export type SeriesLineDto = z.output<typeof seriesLineDto>;

/** `GET /vsm/series`: one chart per feeder and parameter. */
export const seriesDto = z.object({
  ...timeAxis,
  charts: z.array(z.object({
    ...feederNames,
    parameter,
    unit: z.string(),
    series: z.array(seriesLineDto),
  })),
}).meta({ id: "StatisticsSeriesDto" });
export type SeriesDto = z.output<typeof seriesDto>;
export type SeriesChartDto = SeriesDto["charts"][number];

/** `GET /vsm/histogram`: the distribution and its figures, 2 decimals. */
export const histogramDto = z.object({
  parameter,
  unit: z.string(),
  resolution: z.enum(RESOLUTIONS),
  bins: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
  count: z.number(),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  p05: z.number(),
  p95: z.number(),
}).meta({ id: "StatisticsHistogramDto" });
export type HistogramDto = z.output<typeof histogramDto>;

/** `GET /vsm/compare`: one curve per feeder on one time axis. */
export const compareDto = z.object({
  ...timeAxis,
  parameter,
  unit: z.string(),
  feeders: z.array(z.object({
    ...feederNames,
    values,
    summary: z.object({
      min: z.number().nullable(),
      max: z.number().nullable(),
      mean: z.number().nullable(),
    }),
  })),
}).meta({ id: "StatisticsCompareDto" });
export type CompareDto = z.output<typeof compareDto>;
export type CompareFeederDto = CompareDto["feeders"][number];
