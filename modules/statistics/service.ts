/**
 * Visual statistics (vsm): time series, histograms and feeder comparisons of any period from
 * 10 minutes to 366 days, each answer from one query on the level that suits the period
 * (20-s values, 10-minute, hourly or daily aggregates), laid on a regular time grid.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  answerValues,
  autoResolution,
  checkPeriod,
  type Combination,
  combinePhases,
  gridTimes,
  hasValues,
  histogram,
  HISTOGRAM_BINS,
  loadSlots,
  MAX_POINTS,
  PERIOD_LIMITS,
  type Resolution,
  RESOLUTIONS,
  type SlotGrid,
  slotGrid,
  STATISTICS_PARAMETERS,
  STATISTICS_PHASES,
  type StatisticsParameter,
  statisticsParameter,
  summarize,
} from "../../core/mod.ts";
import { AppError, validationError } from "../../kernel/mod.ts";
import {
  COMPARE_FEEDERS,
  type CompareDto,
  type CompareQuery,
  type HistogramDto,
  type HistogramQuery,
  type ParametersDto,
  type SeriesDto,
  type SeriesLineDto,
  type SeriesQuery,
  type StatisticsLimits,
  type StatisticsParameterKey,
} from "./contract.ts";

export type { CompareDto, HistogramDto, ParametersDto, SeriesDto, StatisticsLimits };

import type { Level } from "../grid/mod.ts";

/** The voltage level of a request (spec 2.3), the grid's. */
export type { Level };

/** A feeder of the customer at the requested level, with the series of its probes. */
export interface FeederRef {
  feeder_id: string;
  feeder_name: string;
  node_id: string;
  node_name: string;
  /** Series ids of L1, L2, L3 and N (undefined: the probe never reported). */
  series: readonly (number | undefined)[];
}

/** Finds feeders of a customer at a level. */
export interface FeederDirectory {
  /**
   * The feeders of `ids` in that order; throws `grid.elementNotFound` for an id that is not a
   * feeder of the customer at `level` (another customer's looks the same as an unknown one).
   */
  feeders(customerKey: string, level: Level, ids: readonly string[]): Promise<FeederRef[]>;
}

/**
 * The defaults. Spec 9 leaves the maximum of selected charts as a parameter without a value;
 * six charts let one quantity be charted for every feeder of a node ("Maximum feeders 6").
 */
export const STATISTICS_LIMITS: Readonly<StatisticsLimits> = Object.freeze({
  max_charts: 6,
  max_compare_feeders: COMPARE_FEEDERS.max,
  min_compare_feeders: COMPARE_FEEDERS.min,
  max_period_days: PERIOD_LIMITS.maxPeriodDays,
  min_period_minutes: PERIOD_LIMITS.minPeriodMinutes,
});

/** The names of a feeder in an answer. */
type FeederNames = Pick<FeederRef, "feeder_id" | "feeder_name" | "node_id" | "node_name">;

/** Period and level of a request as sent (checked by the service). */
type PeriodQuery = Pick<SeriesQuery, "from" | "to" | "level">;

/** The time axis of an answer. */
type TimeAxis = Pick<SeriesDto, "from" | "to" | "resolution" | "step_s" | "times">;

/** A checked period with its level and grid. */
interface Window {
  from: number;
  to: number;
  resolution: Resolution;
  grid: SlotGrid;
}

const LINE_PHASES = [0, 1, 2] as const;
const NEUTRAL = 3;

/** Serves the vsm calls from the streaming core's tables. */
export class StatisticsService {
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly directory: FeederDirectory,
    readonly limits: Readonly<StatisticsLimits> = STATISTICS_LIMITS,
  ) {}

  parameters(): ParametersDto {
    return {
      parameters: STATISTICS_PARAMETERS.map(({ key, unit, per_phase }) => ({
        key: key as StatisticsParameterKey,
        unit,
        per_phase,
      })),
      limits: { ...this.limits },
    };
  }

  /** Time series per feeder and parameter (one chart each), per phase where it applies. */
  async series(customerKey: string, q: SeriesQuery): Promise<SeriesDto> {
    const charts = q.feeders.length * q.parameters.length;
    if (charts > this.limits.max_charts) {
      throw new AppError("statistics.tooManySelections", { limit: this.limits.max_charts });
    }
    const window = this.#window(q, q.resolution);
    const refs = await this.directory.feeders(customerKey, q.level, q.feeders);
    const parameters = q.parameters.map(parameterOf);
    const aggregate = window.resolution !== "20s";
    const columns = [
      ...new Set(parameters.flatMap((p) => aggregate ? statColumns(p) : [p.raw])),
    ];
    const data = await this.#load(window, refs.flatMap((r) => known(r.series)), columns);
    const arrays = (id: number | undefined, column: string) =>
      id === undefined ? undefined : data.get(id)?.[columns.indexOf(column)];
    let any = false;
    const out: SeriesDto["charts"] = [];
    for (const ref of refs) {
      for (const p of parameters) {
        // Per stat: its column and how a per-feeder quantity (one curve) combines the phases.
        const stats: ["mean" | "min" | "max", string | undefined, Combination][] = aggregate
          ? [["mean", p.aggregate, "mean"], ["min", p.min, "min"], ["max", p.max, "max"]]
          : [["mean", p.raw, "mean"]];
        const lines: SeriesLineDto[] = [];
        const phases = p.per_phase
          ? [...LINE_PHASES, ...(p.neutral && ref.series[NEUTRAL] !== undefined ? [NEUTRAL] : [])]
          : [null];
        for (const phase of phases) {
          for (const [stat, column, how] of stats) {
            if (!column) continue;
            const values = phase === null
              ? combinePhases(
                known(LINE_PHASES.map((k) => arrays(ref.series[k], column))),
                how,
                window.grid.count,
              )
              : arrays(ref.series[phase], column) ?? empty(window.grid.count);
            any ||= hasValues([values]);
            lines.push({
              phase: phase === null ? null : STATISTICS_PHASES[phase]!,
              stat,
              values: answerValues(values),
            });
          }
        }
        out.push({ ...names(ref), parameter: p.key, unit: p.unit, series: lines });
      }
    }
    if (!any) throw new AppError("data.noVoltageOrCurrent");
    return { ...axis(window), charts: out };
  }

  /** The distribution of one feeder's parameter from 10-minute means (20-s values up to 6 h). */
  async histogram(customerKey: string, q: HistogramQuery): Promise<HistogramDto> {
    const p = parameterOf(q.parameter);
    const period = this.#period(q);
    const resolution: Resolution = autoResolution(period.to - period.from) === "20s"
      ? "20s"
      : "10min";
    const window = {
      ...period,
      resolution,
      grid: slotGrid(period.from, period.to, RESOLUTIONS[resolution].stepMs),
    };
    const [ref] = await this.directory.feeders(customerKey, q.level, [q.feeder]);
    const phases = q.phase ? [STATISTICS_PHASES.indexOf(q.phase)] : LINE_PHASES;
    const column = resolution === "20s" ? p.raw : p.aggregate;
    const ids = known(phases.map((k) => ref!.series[k]));
    const data = await this.#load(window, ids, [column]);
    const arrays = ids.map((id) => data.get(id)![0]!);
    // A quantity of the feeder (frequency, unbalance) counts once per slot, not once per phase.
    const values = q.phase || p.per_phase
      ? arrays
      : [combinePhases(arrays, "mean", window.grid.count)];
    const result = histogram(values, q.bins ?? HISTOGRAM_BINS.default);
    if (!result) throw new AppError("data.noVoltageOrCurrent");
    return { parameter: p.key, unit: p.unit, resolution, ...result };
  }

  /** One curve per feeder (a phase, or the feeder's phases combined) on one time axis. */
  async compare(customerKey: string, q: CompareQuery): Promise<CompareDto> {
    const { min_compare_feeders: min, max_compare_feeders: max } = this.limits;
    if (q.feeders.length < min || q.feeders.length > max) {
      throw new AppError("statistics.compareFeeders", { min, max });
    }
    const p = parameterOf(q.parameter);
    const window = this.#window(q, q.resolution);
    const refs = await this.directory.feeders(customerKey, q.level, q.feeders);
    const column = window.resolution === "20s" ? p.raw : p.aggregate;
    const phases = q.phase === "all" ? LINE_PHASES : [STATISTICS_PHASES.indexOf(q.phase)];
    const data = await this.#load(
      window,
      refs.flatMap((r) => known(phases.map((k) => r.series[k]))),
      [column],
    );
    let any = false;
    const feeders = refs.map((ref) => {
      const arrays = known(phases.map((k) => ref.series[k])).map((id) => data.get(id)![0]!);
      const values = arrays.length === 1
        ? arrays[0]!
        : combinePhases(arrays, p.per_phase ? p.combine : "mean", window.grid.count);
      any ||= hasValues([values]);
      return { ...names(ref), values: answerValues(values), summary: summarize(values) };
    });
    if (!any) throw new AppError("data.noVoltageOrCurrent");
    return { ...axis(window), parameter: p.key, unit: p.unit, feeders };
  }

  /** The period of a request, checked (codes 401, 402, 403). */
  #period(q: PeriodQuery): { from: number; to: number } {
    const period = checkPeriod(q.from, q.to);
    if ("error" in period) throw new AppError(period.error);
    return period;
  }

  /** The period, the level it is read from and its grid; a grid too fine is refused. */
  #window(q: PeriodQuery, requested: Resolution | "auto"): Window {
    const { from, to } = this.#period(q);
    const resolution = requested === "auto" ? autoResolution(to - from) : requested;
    const grid = slotGrid(from, to, RESOLUTIONS[resolution].stepMs);
    if (grid.count > MAX_POINTS) {
      throw new AppError("statistics.tooManyPoints", { limit: MAX_POINTS });
    }
    return { from, to, resolution, grid };
  }

  /** One query for every series and column of an answer. */
  #load(window: Window, seriesIds: readonly number[], columns: readonly string[]) {
    if (!seriesIds.length) return Promise.resolve(new Map<number, Float64Array[]>());
    return loadSlots(this.connection, {
      resolution: window.resolution,
      grid: window.grid,
      seriesIds: [...new Set(seriesIds)],
      columns,
    });
  }
}

/** A core parameter under its contract key. */
type Parameter = StatisticsParameter & { key: StatisticsParameterKey };

function parameterOf(key: string): Parameter {
  const p = statisticsParameter(key);
  // The routes validate the key; an unknown one here is a bad request, never a 500.
  if (!p) {
    throw validationError([{ path: "parameter", key: "validation.invalidChoice", params: {} }]);
  }
  return p as Parameter;
}

/** The aggregate columns of a parameter: the slot value and the extremes where stored. */
function statColumns(p: StatisticsParameter): string[] {
  return [p.aggregate, p.min, p.max].filter((c): c is string => c !== undefined);
}

function known<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((v): v is T => v !== undefined);
}

const empty = (count: number) => new Float64Array(count).fill(NaN);

function names(ref: FeederRef): FeederNames {
  const { feeder_id, feeder_name, node_id, node_name } = ref;
  return { feeder_id, feeder_name, node_id, node_name };
}

function axis(window: Window): TimeAxis {
  return {
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    resolution: window.resolution,
    step_s: window.grid.stepMs / 1000,
    times: gridTimes(window.grid),
  };
}
