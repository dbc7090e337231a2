/**
 * @module
 * Visual statistics: period rules and the level a period is read from, the regular time grid,
 * one columnar query per answer, phase combination, summaries and histograms.
 */
export {
  type PhaseCombination,
  STATISTICS_PARAMETER_KEYS,
  STATISTICS_PARAMETERS,
  STATISTICS_PHASES,
  type StatisticsParameter,
  statisticsParameter,
  type StatisticsPhase,
} from "./parameters.ts";
export {
  AUTO_MAX_MS,
  autoResolution,
  checkPeriod,
  gridTimes,
  MAX_POINTS,
  parseInstant,
  PERIOD_LIMITS,
  type PeriodErrorKey,
  type Resolution,
  RESOLUTION_NAMES,
  RESOLUTIONS,
  type SlotGrid,
  slotGrid,
} from "./period.ts";
export {
  answerValues,
  type Combination,
  combinePhases,
  hasValues,
  round2,
  summarize,
} from "./combine.ts";
export {
  type Histogram,
  histogram,
  HISTOGRAM_BINS,
  type HistogramBin,
  percentile,
} from "./histogram.ts";
export { loadSlots, type SlotQuery, slotSql } from "./load.ts";
