/**
 * The power-quality reports contract (pqm): statuses and results of spec 4, the report name and
 * period rules of spec 5 (the form mirrors them), the inputs and answers of the /pqm calls,
 * shared with the web app (types with `import type`). Pure: imports only zod.
 */
import { z } from "zod";

/** Spec 4 report statuses. */
export const REPORT_STATUSES = [
  "SCHEDULED",
  "IN_PROGRESS",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Spec 4 results. */
export const REPORT_RESULTS = ["PASSED", "NOT_PASSED"] as const;
export type ReportResult = (typeof REPORT_RESULTS)[number];

/** Spec 3: EN50160 or a custom limit set. */
export const STANDARDS = ["EN50160", "CUSTOM"] as const;
export type Standard = (typeof STANDARDS)[number];

/** The languages a report (PDF) is written in. */
export const REPORT_LANGUAGES = ["en", "fr", "de", "uk"] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/** Stages of a running report, in order. */
export const REPORT_STAGES = ["LOADING", "EVALUATING", "PDF", "DONE"] as const;
export type ReportStage = (typeof REPORT_STAGES)[number];

/** Statuses a report can be cancelled from (502 otherwise). */
export const CANCELLABLE: readonly ReportStatus[] = ["SCHEDULED", "IN_PROGRESS"];
/** Statuses a report can be deleted from (502 otherwise: cancel it first). */
export const DELETABLE: readonly ReportStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

/** Spec 5: report name 3 to 60 characters, required. */
export const REPORT_NAME = Object.freeze({ min: 3, max: 60 });
/** Spec 5: characters not allowed in names. */
export const FORBIDDEN_NAME_CHARS = /[:<>"/\\|?*!]/;
/** Spec 5 and 8.2: a report period is 10 minutes to 366 days. */
export const REPORT_PERIOD = Object.freeze({ minMinutes: 10, maxDays: 366 });
/** Spec 9: PQ history lists show 12 per page. */
export const REPORTS_PER_PAGE = 12;
/** Evaluation grid: 10-minute slots, UTC-aligned. */
export const SLOT_MINUTES = 10;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The report name rule as a schema (message keys of the error catalogue). */
export const reportName = z.string({ error: "validation.pleaseInputName" }).trim()
  .refine((v) => v.length > 0, { message: "validation.pleaseInputName", abort: true })
  .min(REPORT_NAME.min, { message: "validation.nameMin", abort: true })
  .max(REPORT_NAME.max, { message: "validation.nameMax", abort: true })
  .refine((v) => !FORBIDDEN_NAME_CHARS.test(v), "validation.forbiddenChars");

const DURATION =
  /^P(?:(\d{1,4})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,7})M)?(?:(\d{1,9})S)?)?$/;

/**
 * The end of a period given as an ISO-8601 duration from `start` (`P7D`, `PT10M`, `P1M`, ...,
 * years and months on the UTC calendar) or as an ISO instant (the end itself). Null when the
 * text is neither.
 */
export function periodEnd(start: Date, period: string): Date | null {
  const text = period.trim();
  const m = DURATION.exec(text);
  if (m) {
    if (text === "P" || text.endsWith("T")) return null;
    const [years, months, weeks, days, hours, minutes, seconds] = m.slice(1).map((v) =>
      v === undefined ? 0 : Number(v)
    ) as [number, number, number, number, number, number, number];
    const end = new Date(start.getTime());
    end.setUTCFullYear(end.getUTCFullYear() + years, end.getUTCMonth() + months);
    return new Date(
      end.getTime() + (weeks * 7 + days) * DAY_MS + hours * 3_600_000 + minutes * MINUTE_MS +
        seconds * 1000,
    );
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const end = new Date(text);
  return Number.isNaN(end.getTime()) ? null : end;
}

/** The error codes of a period (spec 8.2): 401 incorrect, 402 over 366 days, 403 under 10 min. */
export type PeriodProblem = 401 | 402 | 403;

/**
 * What is wrong with `[start, end)` as a report period, or null. Incorrect (401): a missing or
 * invalid bound, an end not after the start, or a bound off the 10-minute UTC grid.
 */
export function periodProblem(start: Date | null, end: Date | null): PeriodProblem | null {
  if (!start || !end || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return 401;
  const length = end.getTime() - start.getTime();
  if (length <= 0) return 401;
  if (length < REPORT_PERIOD.minMinutes * MINUTE_MS) return 403;
  if (length > REPORT_PERIOD.maxDays * DAY_MS) return 402;
  const slot = SLOT_MINUTES * MINUTE_MS;
  if (start.getTime() % slot !== 0 || end.getTime() % slot !== 0) return 401;
  return null;
}

/** The catalogue key of a period problem (the web shows the same text the server sends). */
export const PERIOD_PROBLEM_KEYS: Readonly<Record<PeriodProblem, string>> = {
  401: "data.periodIncorrect",
  402: "data.periodTooLong",
  403: "data.periodTooShort",
};

/** `POST /pqm/reports`. The period is checked by the service (codes 401-403, 512, 513). */
export const createReportInput = z.strictObject({
  name: reportName,
  language: z.enum(REPORT_LANGUAGES),
  node: z.string().min(1, "validation.required").max(64),
  /** Feeder ids of the node; default: the node's first feeder. */
  feeders: z.array(z.string().min(1).max(64)).max(6).optional(),
  /** ISO instant on the 10-minute grid. */
  start: z.string().min(1, "validation.required").max(64),
  /** ISO-8601 duration (`P7D`) or the end instant. */
  period: z.string().min(1, "validation.required").max(64),
  standard: z.enum(STANDARDS).default("EN50160"),
  /** A named custom limit set (standard CUSTOM). */
  limit_set: z.string().max(64).optional(),
});
export type CreateReportInput = z.output<typeof createReportInput>;

/** `GET /pqm/reports`: a page (0-based) and filters. */
export const reportsQuery = z.object({
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  status: z.enum(REPORT_STATUSES).optional(),
  result: z.enum(REPORT_RESULTS).optional(),
  node: z.string().max(64).optional(),
  /** Part of the name, case-insensitive. */
  q: z.string().max(60).optional(),
});
export type ReportsQuery = z.output<typeof reportsQuery>;

/** `POST /pqm/reports` answer (202). */
export const reportAcceptedDto = z.object({
  key: z.string(),
  status: z.enum(REPORT_STATUSES),
}).meta({ id: "PqReportAccepted" });
export type ReportAcceptedDto = z.output<typeof reportAcceptedDto>;

/** The parameters of a summary, in order (h2..h25 as `h<order>`). */
export const SUMMARY_PARAMETERS = [
  "voltage",
  "frequency",
  "flicker",
  "unbalance",
  "thd",
  ...Array.from({ length: 24 }, (_, k) => `h${k + 2}`),
] as const;

const counts = {
  n: z.number(),
  n1: z.number(),
  n2: z.number().nullable(),
  flagged: z.number(),
  missing: z.number(),
  /** True passed, false not passed, null not evaluable (no valid interval). */
  passed: z.boolean().nullable(),
};

/** One phase (or the node, for frequency and unbalance) of a parameter. */
export const phaseSummaryDto = z.object({
  phase: z.enum(["L1", "L2", "L3"]).nullable(),
  ...counts,
  /** The value the limit is about: 95th percentile (99.5th for frequency), null without data. */
  value: z.number().nullable(),
  /** The highest value (deviation in % for voltage and frequency). */
  max: z.number().nullable(),
});
export type PhaseSummaryDto = z.output<typeof phaseSummaryDto>;

/** One parameter of a feeder's summary (counts summed over the weeks, worst phase shown). */
export const parameterSummaryDto = z.object({
  parameter: z.string(),
  /** The limit in the parameter's unit (deviation limits in % of nominal). */
  limit: z.number(),
  /** The 100 % band for voltage and frequency, as [lower %, upper %]. */
  limit100: z.tuple([z.number(), z.number()]).nullable(),
  /** Share of the intervals that must be inside the limit, %. */
  share_pct: z.number(),
  unit: z.string(),
  ...counts,
  phases: z.array(phaseSummaryDto),
});
export type ParameterSummaryDto = z.output<typeof parameterSummaryDto>;

/** One evaluated week (an ISO week, or the remaining part of the period). */
export const weekSummaryDto = z.object({
  from: z.string(),
  to: z.string(),
  /** True for a full ISO week, false for a part. */
  full: z.boolean(),
  passed: z.boolean().nullable(),
  failed: z.array(z.string()),
});

/** One feeder's result. */
export const feederSummaryDto = z.object({
  feeder_id: z.string(),
  feeder_name: z.string(),
  passed: z.boolean().nullable(),
  /** Valid 10-minute intervals of the voltage over all, %. */
  availability_pct: z.number(),
  slots: z.number(),
  flagged: z.number(),
  missing: z.number(),
  weeks: z.array(weekSummaryDto),
  parameters: z.array(parameterSummaryDto),
});
export type FeederSummaryDto = z.output<typeof feederSummaryDto>;

/** Why a report failed: a catalogue key with its params. */
export const failureDto = z.object({
  key: z.string(),
  code: z.number().nullable(),
  params: z.record(z.string(), z.unknown()),
});

/** A report as lists show it. */
export const reportDto = z.object({
  key: z.string(),
  name: z.string(),
  language: z.enum(REPORT_LANGUAGES),
  node_id: z.string(),
  node_name: z.string(),
  ew_name: z.string(),
  feeders: z.array(z.object({ id: z.string(), name: z.string() })),
  start: z.string(),
  end: z.string(),
  standard: z.enum(STANDARDS),
  limit_set: z.string(),
  status: z.enum(REPORT_STATUSES),
  result: z.enum(REPORT_RESULTS).nullable(),
  stage: z.enum(REPORT_STAGES).nullable(),
  percent: z.number(),
  failure: failureDto.nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  has_pdf: z.boolean(),
}).meta({ id: "PqReportDto" });
export type ReportDto = z.output<typeof reportDto>;

/** `GET /pqm/reports/{key}`: the report and its per-feeder summary once completed. */
export const reportDetailDto = reportDto.extend({
  summary: z.array(feederSummaryDto).nullable(),
}).meta({ id: "PqReportDetailDto" });
export type ReportDetailDto = z.output<typeof reportDetailDto>;

/** `GET /pqm/reports`: one page. */
export const reportPageDto = z.object({
  reports: z.array(reportDto),
  page: z.number(),
  size: z.number(),
  total: z.number(),
  /** The customer's report limit (code 510) and how many exist. */
  limit: z.number(),
}).meta({ id: "PqReportPageDto" });
export type ReportPageDto = z.output<typeof reportPageDto>;

/** `GET /pqm/electrical-works`: works with their nodes and feeders, each node's latest result. */
export const pqElectricalWorksDto = z.object({
  electrical_works: z.array(z.object({
    key: z.string(),
    name: z.string(),
    nodes: z.array(z.object({
      id: z.string(),
      name: z.string(),
      /** A cell is installed at the node (else code 505). */
      has_cell: z.boolean(),
      feeders: z.array(z.object({ id: z.string(), name: z.string(), slot: z.number() })),
      latest_report: z.object({
        key: z.string(),
        name: z.string(),
        status: z.enum(REPORT_STATUSES),
        result: z.enum(REPORT_RESULTS).nullable(),
        end: z.string(),
      }).nullable(),
    })),
  })),
  /** Limits the create form mirrors. */
  limits: z.object({
    max_reports: z.number(),
    max_future_days: z.number(),
    data_lifetime_days: z.number(),
    min_period_minutes: z.number(),
    max_period_days: z.number(),
  }),
}).meta({ id: "PqElectricalWorksDto" });
export type PqElectricalWorksDto = z.output<typeof pqElectricalWorksDto>;
export type PqLimits = PqElectricalWorksDto["limits"];

// ---- Custom limit sets (admin-edited; EN 50160 itself is locked) ---------------------------

/** The key of the locked EN 50160 set in the list of limit sets. */
export const EN50160_KEY = "EN50160";

const pct = z.number().finite().min(-100).max(100);
const share = z.number().finite().min(0).max(100);
const positive = z.number().finite().gt(0).max(100);
const band = z.strictObject({ lowerPct: pct.optional(), upperPct: pct.optional() });
const deviation = z.strictObject({
  band: band.optional(),
  sharePct: share.optional(),
  band100: band.optional(),
});
const maximum = z.strictObject({ max: positive.optional(), sharePct: share.optional() });
const HARMONIC_KEYS = Array.from({ length: 24 }, (_, k) => String(k + 2)) as [string, ...string[]];

/** What a custom set changes of EN 50160 (any value; the rest stays the standard's). */
export const limitOverridesInput = z.strictObject({
  voltage: deviation.optional(),
  frequency: deviation.optional(),
  flicker: maximum.optional(),
  unbalance: maximum.optional(),
  thd: maximum.optional(),
  harmonics: z.strictObject({
    maxPct: z.partialRecord(z.enum(HARMONIC_KEYS), positive).optional(),
    sharePct: share.optional(),
  }).optional(),
});
export type LimitOverridesInput = z.output<typeof limitOverridesInput>;

/** `POST /pqm/limit-sets`, `PUT /pqm/limit-sets/{key}`. */
export const limitSetInput = z.strictObject({
  name: reportName,
  overrides: limitOverridesInput,
});
export type LimitSetInput = z.output<typeof limitSetInput>;

const deviationDto = z.object({
  band: z.object({ lowerPct: z.number(), upperPct: z.number() }),
  sharePct: z.number(),
  band100: z.object({ lowerPct: z.number(), upperPct: z.number() }),
});
const maximumDto = z.object({ max: z.number(), sharePct: z.number() });

/** A limit set with every value. */
export const limitSetDto = z.object({
  key: z.string(),
  name: z.string(),
  /** EN 50160 itself: read-only. */
  locked: z.boolean(),
  limits: z.object({
    voltage: deviationDto,
    frequency: deviationDto,
    flicker: maximumDto,
    unbalance: maximumDto,
    thd: maximumDto,
    harmonics: z.object({ maxPct: z.record(z.string(), z.number()), sharePct: z.number() }),
  }),
  overrides: limitOverridesInput,
  updated_at: z.string().nullable(),
}).meta({ id: "PqLimitSetDto" });
export type LimitSetDto = z.output<typeof limitSetDto>;

/** `GET /pqm/limit-sets`: EN 50160 (locked) first, then the customer's custom sets by name. */
export const limitSetsDto = z.object({ limit_sets: z.array(limitSetDto) }).meta({
  id: "PqLimitSetsDto",
});
export type LimitSetsDto = z.output<typeof limitSetsDto>;
