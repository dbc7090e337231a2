/**
 * The create-report form's rules, mirrored from the server's contract (spec 5 and 8.2): the
 * name schema, the period (401-403), the future and data-lifetime limits (512, 513) and a node
 * with a cell (505). Each message is the catalogue key the server would answer with. Start and
 * end are typed as wall-clock times of the customer's time zone. Pure.
 */
import {
  type CreateReportInput,
  periodEnd,
  periodProblem,
  type PqLimits,
  type ReportLanguage,
  reportName,
} from "../../../../modules/power_quality/contract.ts";
import { timeZoneOffsetMinutes } from "../../lib/time-zone.ts";

/** The form's fields. */
export type ReportField = "name" | "node" | "start" | "period";

/** How the period is given: a length or an end. */
export type PeriodMode = "duration" | "end";
export const DURATION_UNITS = ["minutes", "hours", "days", "weeks"] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

/** What the form holds. */
export interface ReportFormValues {
  name: string;
  language: ReportLanguage;
  node: string;
  feeders: string[];
  /** `YYYY-MM-DDTHH:mm` on the customer's clock. */
  start: string;
  mode: PeriodMode;
  amount: string;
  unit: DurationUnit;
  end: string;
  /** EN50160 or the key of a custom limit set. */
  limitSet: string;
}

/** A message of the `errors` namespace with its placeholders and code. */
export interface FormMessage {
  key: string;
  params?: Record<string, unknown>;
  code?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A wall-clock `YYYY-MM-DDTHH:mm` of `timeZone` as an instant (NaN when invalid). */
export function wallToInstant(wall: string, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d! || h! > 23) return Number.NaN;
  let at = asUtc - (timeZoneOffsetMinutes(timeZone, new Date(asUtc)) ?? 0) * MINUTE;
  at = asUtc - (timeZoneOffsetMinutes(timeZone, new Date(at)) ?? 0) * MINUTE;
  return at;
}

/** An instant as `YYYY-MM-DDTHH:mm` on the clock of `timeZone`. */
export function instantToWall(ms: number, timeZone: string): string {
  const offset = timeZoneOffsetMinutes(timeZone, new Date(ms)) ?? 0;
  return new Date(ms + offset * MINUTE).toISOString().slice(0, 16);
}

/** The ISO-8601 duration of an amount and unit (`PT90M`, `P7D`), or null when not a whole number. */
export function isoDuration(amount: string, unit: DurationUnit): string | null {
  if (!/^\d{1,6}$/.test(amount.trim())) return null;
  const n = Number(amount);
  switch (unit) {
    case "minutes":
      return `PT${n}M`;
    case "hours":
      return `PT${n}H`;
    case "days":
      return `P${n}D`;
    case "weeks":
      return `P${n}W`;
  }
}

/** The request body of the form, or null when start or period cannot be read. */
export function toInput(values: ReportFormValues, timeZone: string): CreateReportInput | null {
  const start = wallToInstant(values.start, timeZone);
  if (Number.isNaN(start)) return null;
  const period = values.mode === "duration" ? isoDuration(values.amount, values.unit) : (() => {
    const end = wallToInstant(values.end, timeZone);
    return Number.isNaN(end) ? null : new Date(end).toISOString();
  })();
  if (!period) return null;
  return {
    name: values.name.trim(),
    language: values.language,
    node: values.node,
    ...(values.feeders.length ? { feeders: values.feeders } : {}),
    start: new Date(start).toISOString(),
    period,
    ...(values.limitSet && values.limitSet !== "EN50160"
      ? { standard: "CUSTOM" as const, limit_set: values.limitSet }
      : { standard: "EN50160" as const }),
  };
}

/** The form's messages by field (empty when it may be sent). */
export function validateReportForm(
  values: ReportFormValues,
  context: { limits: PqLimits; timeZone: string; now: number; nodeHasCell: boolean | null },
): Partial<Record<ReportField, FormMessage>> {
  const errors: Partial<Record<ReportField, FormMessage>> = {};
  const name = reportName.safeParse(values.name);
  if (!name.success) {
    const issue = name.error.issues[0]!;
    const count = issue.code === "too_small"
      ? Number(issue.minimum)
      : issue.code === "too_big"
      ? Number(issue.maximum)
      : undefined;
    errors.name = { key: issue.message, ...(count === undefined ? {} : { params: { count } }) };
  }
  if (!values.node) errors.node = { key: "validation.required" };
  else if (context.nodeHasCell === false) errors.node = { key: "pq.noNodeLinked", code: 505 };
  const startMs = wallToInstant(values.start, context.timeZone);
  if (Number.isNaN(startMs)) {
    errors.start = { key: values.start ? "data.periodIncorrect" : "validation.required" };
    return errors;
  }
  const { limits, now } = context;
  if (startMs < now - limits.data_lifetime_days * DAY) {
    errors.start = {
      key: "pq.startBeyondDataLifetime",
      params: { limit: limits.data_lifetime_days },
      code: 512,
    };
  } else if (startMs > now + limits.max_future_days * DAY) {
    errors.start = {
      key: "pq.tooFarInFuture",
      params: { limit: limits.max_future_days },
      code: 513,
    };
  }
  const input = toInput(values, context.timeZone);
  const start = new Date(startMs);
  const end = input ? periodEnd(start, input.period) : null;
  const problem = periodProblem(start, end);
  if (problem) {
    const keys = {
      401: "data.periodIncorrect",
      402: "data.periodTooLong",
      403: "data.periodTooShort",
    };
    errors.period = { key: keys[problem], code: problem };
  }
  return errors;
}
