/**
 * The selection of the statistics and compare screens and its URL form, so that a reload or a
 * shared link gives the same view: `feeders` and `parameters` as comma lists, `chart`, `phase`,
 * and either `range` (a quick range ending now) or `from`/`to` (ISO instants).
 */
import {
  COMPARE_FEEDERS,
  PHASE_CHOICES,
  type PhaseChoice,
  STATISTICS_PARAMETER_KEYS,
  type StatisticsParameterKey,
} from "../../../../modules/statistics/contract.ts";
import {
  DEFAULT_RANGE,
  isQuickRange,
  type PeriodChoice,
  resolvePeriod,
  validatePeriod,
} from "./period.ts";

/** The measured quantities of /vsm/parameters. */
export const PARAMETERS = STATISTICS_PARAMETER_KEYS;
export type Parameter = StatisticsParameterKey;

export const CHART_TYPES = ["time", "histogram"] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export { PHASE_CHOICES, type PhaseChoice };

/** Spec 9: compare takes 2 to 10 feeders. */
export const COMPARE_LIMITS = COMPARE_FEEDERS;

/** What the statistics screen shows. */
export interface StatisticsSelection {
  feeders: string[];
  parameters: Parameter[];
  chart: ChartType;
  phase: PhaseChoice;
  /** Time series also draw the min and max of each slot (aggregate levels only). */
  minMax: boolean;
  period: PeriodChoice;
}

/** What the compare screen shows. */
export interface CompareSelection {
  feeders: string[];
  parameter: Parameter;
  phase: PhaseChoice;
  period: PeriodChoice;
}

/** The URL search parameters of both screens (plain strings, so links stay readable). */
export type SelectionSearch = {
  feeders?: string | undefined;
  parameters?: string | undefined;
  parameter?: string | undefined;
  chart?: string | undefined;
  phase?: string | undefined;
  /** `true` (the router writes booleans as JSON: `minmax=true`). */
  minmax?: boolean | undefined;
  range?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

const one = <T extends string>(list: readonly T[], value: unknown): T | undefined =>
  typeof value === "string" && (list as readonly string[]).includes(value) ? value as T : undefined;

/** A comma list without empty or repeated entries, in the given order. */
export function splitList(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return [...new Set(value.split(",").map((s) => s.trim()).filter(Boolean))];
}

function periodFromSearch(search: SelectionSearch): PeriodChoice {
  if (isQuickRange(search.range)) return { kind: "quick", range: search.range };
  if (typeof search.from === "string" && typeof search.to === "string") {
    // An unparsable instant stays NaN so that the screen explains it (401) instead of hiding it.
    return { kind: "custom", from: Date.parse(search.from), to: Date.parse(search.to) };
  }
  return { kind: "quick", range: DEFAULT_RANGE };
}

function periodToSearch(period: PeriodChoice): SelectionSearch {
  if (period.kind === "quick") return { range: period.range, from: undefined, to: undefined };
  const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : "invalid");
  return { range: undefined, from: iso(period.from), to: iso(period.to) };
}

/** The statistics selection a URL asks for; unknown values fall back to the defaults. */
export function statisticsFromSearch(search: SelectionSearch): StatisticsSelection {
  return {
    feeders: splitList(search.feeders),
    parameters: splitList(search.parameters).filter((p): p is Parameter =>
      one(PARAMETERS, p) !== undefined
    ),
    chart: one(CHART_TYPES, search.chart) ?? "time",
    phase: one(PHASE_CHOICES, search.phase) ?? "all",
    minMax: search.minmax === true,
    period: periodFromSearch(search),
  };
}

/** The URL search of a statistics selection (defaults are left out). */
export function statisticsToSearch(selection: StatisticsSelection): SelectionSearch {
  return {
    feeders: selection.feeders.length ? selection.feeders.join(",") : undefined,
    parameters: selection.parameters.length ? selection.parameters.join(",") : undefined,
    chart: selection.chart === "time" ? undefined : selection.chart,
    phase: selection.phase === "all" ? undefined : selection.phase,
    minmax: selection.minMax ? true : undefined,
    ...periodToSearch(selection.period),
  };
}

/** The compare selection a URL asks for; unknown values fall back to the defaults. */
export function compareFromSearch(search: SelectionSearch): CompareSelection {
  return {
    feeders: splitList(search.feeders),
    parameter: one(PARAMETERS, search.parameter) ?? "u",
    phase: one(PHASE_CHOICES, search.phase) ?? "all",
    period: periodFromSearch(search),
  };
}

/** The URL search of a compare selection (defaults are left out). */
export function compareToSearch(selection: CompareSelection): SelectionSearch {
  return {
    feeders: selection.feeders.length ? selection.feeders.join(",") : undefined,
    parameter: selection.parameter === "u" ? undefined : selection.parameter,
    phase: selection.phase === "all" ? undefined : selection.phase,
    ...periodToSearch(selection.period),
  };
}

/** Why a selection cannot be shown yet, as a key of the `statistics` namespace or `errors`. */
export type SelectionProblem =
  | { kind: "empty"; key: "empty.noFeeder" | "empty.noParameter" }
  | { kind: "limit"; key: "limits.maxCharts" | "limits.compareMin" | "limits.compareMax" }
  | { kind: "period"; key: ReturnType<typeof validatePeriod> & string };

/** The first problem of a statistics selection, or null when it can be fetched. */
export function statisticsProblem(
  selection: StatisticsSelection,
  maxCharts: number,
  now: number,
): SelectionProblem | null {
  const period = validatePeriod(resolvePeriod(selection.period, now));
  if (period) return { kind: "period", key: period };
  if (!selection.feeders.length) return { kind: "empty", key: "empty.noFeeder" };
  if (!selection.parameters.length) return { kind: "empty", key: "empty.noParameter" };
  if (selection.feeders.length * selection.parameters.length > maxCharts) {
    return { kind: "limit", key: "limits.maxCharts" };
  }
  return null;
}

/** The first problem of a compare selection, or null when it can be fetched. */
export function compareProblem(selection: CompareSelection, now: number): SelectionProblem | null {
  const period = validatePeriod(resolvePeriod(selection.period, now));
  if (period) return { kind: "period", key: period };
  if (selection.feeders.length < COMPARE_LIMITS.min) {
    return { kind: "limit", key: "limits.compareMin" };
  }
  if (selection.feeders.length > COMPARE_LIMITS.max) {
    return { kind: "limit", key: "limits.compareMax" };
  }
  return null;
}

/**
 * Toggles `id` in a list limited to `max` entries; returns the new list, or null when adding
 * would exceed the limit (the form refuses it and says why).
 */
export function toggleLimited(list: readonly string[], id: string, max: number): string[] | null {
  if (list.includes(id)) return list.filter((x) => x !== id);
  if (list.length >= max) return null;
  return [...list, id];
}

/** How many feeders still fit next to `parameterCount` parameters within `maxCharts` charts. */
export function maxFeedersFor(parameterCount: number, maxCharts: number): number {
  return Math.floor(maxCharts / Math.max(1, parameterCount));
}
