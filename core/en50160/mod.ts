/**
 * @module
 * EN 50160 compliance engine: the LV limit table (and custom limit sets), ISO-week and report
 * period helpers, and the evaluation of one node's 10-minute series into N / N1 / N2 counts and
 * a verdict per parameter. Pure TypeScript over typed arrays; the caller reads the data and
 * passes, per node, `isoWeekRange(year, week)` (or a `validateReportPeriod()` period) with the
 * node's series to `evaluateCompliance()`.
 */
export {
  type ComplianceCounts,
  type ComplianceInput,
  type ComplianceResult,
  evaluateCompliance,
  type ParameterCompliance,
  type ParameterId,
  type Phase,
  type PhaseCompliance,
  type RecordCounts,
  type Series,
} from "./evaluate.ts";
export {
  deriveLimitSet,
  type DeviationBand,
  type DeviationLimit,
  type DeviationLimitOverrides,
  EN50160_LV,
  HARMONIC_ORDERS,
  type HarmonicOrder,
  type LimitOverrides,
  type LimitSet,
  limitSetProblems,
  type MaximumLimit,
  validateLimitSet,
} from "./limits.ts";
export {
  type IsoWeek,
  isoWeekOf,
  isoWeekRange,
  isoWeeksInYear,
  MAX_REPORT_DAYS,
  type ReportPeriod,
  SLOT_MS,
  validateReportPeriod,
} from "./period.ts";
export { ComplianceError, PeriodError, type PeriodErrorCode } from "./errors.ts";
/** The engine's "above a limit": beyond it by more than rounding (a value on it is inside). */
export { upperLimit } from "./_count.ts";
