/**
 * The power-quality events answers (docs/contracts.md, "Power-quality events: /pqe") and the
 * pure rules of the events screen: the filter form's query, its field errors (the server's own
 * rules), the log scale of the magnitude-duration plot.
 */
import {
  type Curve,
  type CurveSide,
  type EventPhase,
  type EventType,
  filterProblems,
} from "../../../../modules/voltage_events/contract.ts";

export type {
  Curve,
  CurveSide,
  EventDetailDto as EventDetail,
  EventDto as PqEvent,
  EventPageDto as EventPage,
  EventPointsDto as EventPoints,
  EventTablesDto as EventTables,
  EventWorksDto as EventWorks,
  GridEventPageDto as GridEventPage,
  RecordingPageDto as RecordingPage,
  RecordingStateDto as RecordingState,
} from "../../../../modules/voltage_events/contract.ts";
export {
  CURVES,
  DIP_COLUMN_IDS,
  DIP_ROW_IDS,
  EVENT_PHASES,
  EVENT_TYPES,
  EVENTS_PAGE_SIZE,
  insideCurve,
  ITIC_LOWER,
  ITIC_UPPER,
  RECORDING_FAILURES,
  SEMI_F47,
  SWELL_COLUMN_IDS,
  SWELL_ROW_IDS,
} from "../../../../modules/voltage_events/contract.ts";

/** The filter form as typed (strings: empty means no filter). */
export interface FilterForm {
  node: string;
  type: EventType | "";
  phase: EventPhase | "";
  /** `datetime-local` values in the browser's time. */
  from: string;
  to: string;
  depthMin: string;
  depthMax: string;
  durationMin: string;
  durationMax: string;
  curve: Curve | "";
  side: CurveSide;
}

export const EMPTY_FILTER: FilterForm = {
  node: "",
  type: "",
  phase: "",
  from: "",
  to: "",
  depthMin: "",
  depthMax: "",
  durationMin: "",
  durationMax: "",
  curve: "",
  side: "OUTSIDE",
};

const number = (text: string) => {
  const value = Number(text.trim().replace(",", "."));
  return text.trim() === "" || !Number.isFinite(value) ? undefined : value;
};
const instant = (local: string) => {
  const ms = local ? Date.parse(local) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};

/** The filter's query parameters (durations typed in ms). */
export function filterParams(form: FilterForm): Record<string, string> {
  const params: Record<string, string | number | undefined> = {
    node: form.node || undefined,
    type: form.type || undefined,
    phase: form.phase || undefined,
    from: instant(form.from),
    to: instant(form.to),
    depth_min: number(form.depthMin),
    depth_max: number(form.depthMax),
    duration_min_ms: number(form.durationMin),
    duration_max_ms: number(form.durationMax),
    curve: form.curve || undefined,
    side: form.curve ? form.side : undefined,
  };
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]),
  );
}

/** A query string of parameters (with `page` when given). */
export function queryOf(params: Record<string, string>, page?: number): string {
  const search = new URLSearchParams(params);
  if (page !== undefined) search.set("page", String(page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The form's field errors by query field, as the server would answer them. */
export function formProblems(form: FilterForm): Record<string, string> {
  const p = filterParams(form);
  const out: Record<string, string> = {};
  for (
    const [field, text] of [
      ["depth_min", form.depthMin],
      ["depth_max", form.depthMax],
    ] as const
  ) {
    const v = number(text);
    if (text.trim() && (v === undefined || v < 0 || v > 200)) {
      out[field] = "validation.invalidValue";
    }
  }
  for (
    const [field, text] of [
      ["duration_min_ms", form.durationMin],
      ["duration_max_ms", form.durationMax],
    ] as const
  ) {
    const v = number(text);
    if (text.trim() && (v === undefined || v < 0 || !Number.isInteger(v))) {
      out[field] = "validation.integerOnly";
    }
  }
  const problems = filterProblems({
    ...(p.from ? { from: p.from } : {}),
    ...(p.to ? { to: p.to } : {}),
    ...(p.depth_min ? { depth_min: Number(p.depth_min) } : {}),
    ...(p.depth_max ? { depth_max: Number(p.depth_max) } : {}),
    ...(p.duration_min_ms ? { duration_min_ms: Number(p.duration_min_ms) } : {}),
    ...(p.duration_max_ms ? { duration_max_ms: Number(p.duration_max_ms) } : {}),
  });
  for (const problem of problems) out[problem.path] ??= problem.key;
  return out;
}

/** Plot bounds: durations 1 ms to 1000 s (log), magnitudes 0 to 2 pu. */
export const PLOT = { minS: 0.001, maxS: 1000, minPu: 0, maxPu: 2 } as const;

/** The x position (0..1) of a duration on the plot's log axis, clamped. */
export function logPosition(seconds: number): number {
  const lo = Math.log10(PLOT.minS);
  const hi = Math.log10(PLOT.maxS);
  const x = (Math.log10(Math.max(PLOT.minS, Math.min(PLOT.maxS, seconds))) - lo) / (hi - lo);
  return Math.max(0, Math.min(1, x));
}

/** The y position (0 top .. 1 bottom) of a magnitude in per unit, clamped. */
export function magnitudePosition(pu: number): number {
  return 1 - Math.max(0, Math.min(1, (pu - PLOT.minPu) / (PLOT.maxPu - PLOT.minPu)));
}

/** A table row or column id as an i18n key part (i18next splits keys at dots). */
export function idKey(id: string): string {
  return id.replaceAll(".", "_");
}
