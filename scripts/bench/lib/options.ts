/** Workload sizes of a full and a quick (~10x smaller) run. Pure. */

/** Every size a run uses. */
export interface Sizes {
  quick: boolean;
  /** Calibration: rows copied by INSERT ... SELECT, doubles summed, raw_measurements rows. */
  engineRows: number;
  scanDoubles: number;
  schemaRows: number;
  /** Appender: rows per transaction (one tick of 5,000 cells) and transactions. */
  appenderTickRows: number;
  appenderTicks: number;
  /** HTTP ingest: cells, timed ticks of one window per batch, rounds of 30 windows per batch. */
  ingestCells: number;
  /**
   * Protocol version the cells speak: 2 (10-minute PQ records) or 1 (PQ values on every 20-s
   * record, folded by the platform).
   */
  protocol: 1 | 2;
  ingestTicks: number;
  ingestWindowsPerBatch: number;
  ingestRounds: number;
  /** Requests in flight. */
  concurrency: number;
  /** Aggregation: cells whose 10-minute slot is closed. */
  aggregationCells: number;
  /** Aggregation: days of 10-minute aggregates stored before that slot (a running platform's). */
  aggregationHistoryDays: number;
  /** Grid status: nodes, evaluations timed. */
  statusNodes: number;
  statusRepeats: number;
  /** Grid status requests timed over HTTP. */
  statusHttpRepeats: number;
  /** Trigger evaluation: cells watched (6 feeders x L1..L3 each) and timed ticks. */
  triggerCells: number;
  triggerTicks: number;
  /** EN 50160: nodes evaluated over one ISO week. */
  complianceNodes: number;
  /** Visual statistics: cells (6 feeders x 4 probes) whose rollups fill the levels. */
  statisticsCells: number;
  /** PostgreSQL: cells per ingest mode and cells of the aggregated slot. */
  pgCellsPerWindowBatch: number;
  pgCellsMultiWindow: number;
  pgAggregationCells: number;
}

/** Sizes of the full run (about 12 minutes on 2 cores) or the quick one (under 2 minutes). */
export function sizesFor(quick: boolean): Sizes {
  const full: Sizes = {
    quick: false,
    engineRows: 10_000_000,
    scanDoubles: 200_000_000,
    schemaRows: 1_000_000,
    appenderTickRows: 120_000,
    appenderTicks: 20,
    ingestCells: 5_000,
    protocol: 2,
    ingestTicks: 3,
    ingestWindowsPerBatch: 30,
    ingestRounds: 1,
    concurrency: 8,
    aggregationCells: 10_000,
    aggregationHistoryDays: 1,
    statusNodes: 5_000,
    statusRepeats: 200,
    statusHttpRepeats: 30,
    triggerCells: 5_000,
    triggerTicks: 30,
    complianceNodes: 2_000,
    statisticsCells: 1_000,
    pgCellsPerWindowBatch: 5_000,
    pgCellsMultiWindow: 2_000,
    pgAggregationCells: 5_000,
  };
  if (!quick) return full;
  return {
    ...full,
    quick: true,
    ingestTicks: 2,
    engineRows: 1_000_000,
    scanDoubles: 20_000_000,
    schemaRows: 100_000,
    appenderTicks: 4,
    ingestCells: 500,
    aggregationCells: 1_000,
    aggregationHistoryDays: 0,
    complianceNodes: 200,
    statisticsCells: 100,
    triggerTicks: 10,
    pgCellsPerWindowBatch: 500,
    pgCellsMultiWindow: 200,
    pgAggregationCells: 500,
  };
}

/** Rows one 20-s window of `cells` LVGRID cells carries (6 feeders x 4 probes). */
export const rowsPerTick = (cells: number) => cells * 6 * 4;

/** How many times faster than real time a row rate is for `cells` cells sending every 20 s. */
export const realTimeFactor = (rowsPerSec: number, cells: number) =>
  rowsPerSec / (rowsPerTick(cells) / 20);

/** The benchmark steps `--only` can name (comma-separated), in run order. */
export const STEPS = [
  "ingest",
  "ingest-pg",
  "ingest-mqtt",
  "grid-status-http",
  "grid-page",
  "appender",
  "aggregation",
  "grid-status",
  "triggers",
  "en50160",
  "pq-report",
  "pq-grid",
  "statistics",
  "postgres",
] as const;
export type Step = (typeof STEPS)[number];

/**
 * The steps `--only a,b` (or `--only=a,b`) selects from `args`, or every step without it;
 * an unknown name throws. The calibration always runs (every ratio needs it).
 */
export function selectedSteps(args: readonly string[]): Set<Step> {
  const k = args.findIndex((a) => a === "--only" || a.startsWith("--only="));
  if (k < 0) return new Set(STEPS);
  const list = args[k]!.startsWith("--only=") ? args[k]!.slice(7) : args[k + 1] ?? "";
  const names = list.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(STEPS as readonly string[]).includes(n));
  if (!names.length || unknown.length) {
    throw new Error(`--only takes some of ${STEPS.join(", ")}; got "${list}"`);
  }
  return new Set(names as Step[]);
}
