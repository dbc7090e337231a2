/**
 * The quantities visual statistics charts, with the columns that hold them at each level:
 * the 20-s value in `raw_measurements`, the slot value and extremes in the aggregate tables
 * (`agg_10min`, `agg_1h`, `agg_1d` share one layout, see core/ingest/schema.ts). Unbalance, Pst
 * and Plt are 10-minute values of the PQ records (`pq_10min`, rollups `pq_1h`, `pq_1d`). Pure.
 */

/** How the phases of a feeder make one curve: the mean of the phases, or their sum (powers). */
export type PhaseCombination = "mean" | "sum";

/** One quantity of `GET /vsm/parameters`. */
export interface StatisticsParameter {
  key: string;
  /** Unit shown on the axis: "V", "A", "kW", "kvar", "%", "Hz" or "" (no unit). */
  unit: string;
  /** Whether the quantity is charted per phase (else one value per feeder). */
  per_phase: boolean;
  /** How the phases of a feeder combine into one curve (compare with phase=all). */
  combine: PhaseCombination;
  /** Whether the neutral conductor carries it (current only). */
  neutral: boolean;
  /**
   * Whether the quantity is a 10-minute PQ value (`pq_*` tables; the 20-s level shows each
   * value for its 10 minutes).
   */
  pq: boolean;
  /** Column of `raw_measurements` (the 20-s value), or of `pq_10min` for a PQ value. */
  raw: string;
  /** Column of the aggregate tables holding the slot's value, and its extremes where stored. */
  aggregate: string;
  min?: string;
  max?: string;
}

/**
 * Every quantity, in the order of the form. Pst and Plt are not averaged: the PQ record and its
 * rollups keep the highest value of the period (core/ingest/pq_rollup.ts), which the charts show.
 * Frequency and unbalance belong to the feeder, not to a phase: one curve, the mean of the
 * phases' readings.
 */
export const STATISTICS_PARAMETERS: readonly StatisticsParameter[] = Object.freeze([
  {
    key: "u",
    unit: "V",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: false,
    raw: "u",
    aggregate: "u_rms",
    min: "u_min",
    max: "u_max",
  },
  {
    key: "i",
    unit: "A",
    per_phase: true,
    combine: "mean",
    neutral: true,
    pq: false,
    raw: "i",
    aggregate: "i_rms",
    min: "i_min",
    max: "i_max",
  },
  {
    key: "p",
    unit: "kW",
    per_phase: true,
    combine: "sum",
    neutral: false,
    pq: false,
    raw: "p",
    aggregate: "p_mean",
  },
  {
    key: "q",
    unit: "kvar",
    per_phase: true,
    combine: "sum",
    neutral: false,
    pq: false,
    raw: "q",
    aggregate: "q_mean",
  },
  {
    key: "pf",
    unit: "",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: false,
    raw: "pf",
    aggregate: "pf_mean",
  },
  {
    key: "thd_u",
    unit: "%",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: false,
    raw: "thd_u",
    aggregate: "thd_u",
  },
  {
    key: "thd_i",
    unit: "%",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: false,
    raw: "thd_i",
    aggregate: "thd_i",
  },
  {
    key: "f",
    unit: "Hz",
    per_phase: false,
    combine: "mean",
    neutral: false,
    pq: false,
    raw: "f",
    aggregate: "f_mean",
    min: "f_min",
    max: "f_max",
  },
  {
    key: "unbalance",
    unit: "%",
    per_phase: false,
    combine: "mean",
    neutral: false,
    pq: true,
    raw: "unbalance",
    aggregate: "unbalance",
  },
  {
    key: "pst",
    unit: "",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: true,
    raw: "pst",
    aggregate: "pst",
  },
  {
    key: "plt",
    unit: "",
    per_phase: true,
    combine: "mean",
    neutral: false,
    pq: true,
    raw: "plt",
    aggregate: "plt",
  },
]);

/** The parameter keys, for request validation. */
export const STATISTICS_PARAMETER_KEYS = STATISTICS_PARAMETERS.map((p) => p.key) as [
  string,
  ...string[],
];

/** The parameter of `key` (undefined for an unknown key). */
export function statisticsParameter(key: string): StatisticsParameter | undefined {
  return STATISTICS_PARAMETERS.find((p) => p.key === key);
}

/** Phase names in probe order (the `phase` of the `series` table). */
export const STATISTICS_PHASES = ["L1", "L2", "L3", "N"] as const;
export type StatisticsPhase = (typeof STATISTICS_PHASES)[number];
