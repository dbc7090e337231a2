/**
 * The export form's state and rules: the server's rules (modules/export/contract.ts) applied
 * as the user types, the body of POST /dem/exports, and the feeder picker's groups and search.
 * Pure.
 */
import {
  type CreateExportBody,
  type DirectoryStructure,
  type ExportFeederDto,
  type ExportFormat,
  type ExportInterval,
  type ExportLayout,
  exportNameIssue,
  exportParameter,
  type ExportParameterKey,
  exportPeriodIssue,
  LONGEST_PERIOD_DAYS,
  type ScheduleBody,
  type ScheduleDto,
  type ScheduleFrequency,
} from "../../../../modules/export/contract.ts";

/** What the form holds (local date-times as the inputs give them). */
export interface ExportForm {
  name: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone. */
  from: string;
  to: string;
  feeders: readonly string[];
  parameters: readonly ExportParameterKey[];
  interval: ExportInterval;
  format: ExportFormat;
  layout: ExportLayout;
  structure: DirectoryStructure;
  /** Once (the period above), or a schedule: each run exports the previous day, week or month. */
  repeat: "ONCE" | ScheduleFrequency;
}

export type ExportField =
  | "name"
  | "period"
  | "feeders"
  | "parameters"
  | "layout"
  | "structure"
  | "frequency";

/** A message of the `errors` namespace. */
export interface FormIssue {
  key: string;
  params?: Record<string, unknown>;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A local `YYYY-MM-DDTHH:mm` of an instant (the datetime-local input's value). */
export function localInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${
    pad(d.getMinutes())
  }`;
}

/** The ISO instant of a datetime-local value ("" when it is not one). */
export function instantOf(local: string): string {
  const ms = new Date(local).getTime();
  return local && Number.isFinite(ms) ? new Date(ms).toISOString() : "";
}

/** A new form: the last 7 whole days, 10-minute values, CSV, flat. */
export function initialForm(now = Date.now()): ExportForm {
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  return {
    name: "",
    from: localInput(today.getTime() - 7 * 86_400_000),
    to: localInput(today.getTime()),
    feeders: [],
    parameters: ["u", "i"],
    interval: "10min",
    format: "csv",
    layout: "long",
    structure: "flat",
    repeat: "ONCE",
  };
}

/** The first issue of each field, as the server would answer it. */
export function formIssues(form: ExportForm): Partial<Record<ExportField, FormIssue>> {
  const out: Partial<Record<ExportField, FormIssue>> = {};
  const name = exportNameIssue(form.name);
  if (name) out.name = name;
  const from = instantOf(form.from);
  const to = instantOf(form.to);
  const period = from && to ? exportPeriodIssue(from, to) : "validation.dateInvalid";
  // A schedule has no period of its own: each run takes the previous day, week or month.
  if (period && form.repeat === "ONCE") out.period = { key: period };
  if (!form.feeders.length) out.feeders = { key: "validation.minItems", params: { count: 1 } };
  if (!form.parameters.length) {
    out.parameters = { key: "validation.minItems", params: { count: 1 } };
  } else if (form.interval === "20s" && form.parameters.some((p) => exportParameter(p)?.pq)) {
    out.parameters = { key: "export.pqNotAt20s" };
  }
  if (form.format === "duckdb" && form.structure !== "flat") {
    out.structure = { key: "export.structureNotForDuckdb" };
  }
  if (form.format === "duckdb" && form.layout !== "long") {
    out.layout = { key: "export.layoutNotForDuckdb" };
  }
  return out;
}

/** Whether the selection can be estimated (the estimate does not need a name). */
export function canEstimate(form: ExportForm): boolean {
  const issues = formIssues(form);
  return !issues.period && !issues.feeders && !issues.parameters;
}

/** The selection part (POST /dem/exports/estimate). */
export function selectionBody(form: ExportForm) {
  return {
    period: { from: instantOf(form.from), to: instantOf(form.to) },
    feeders: [...form.feeders],
    parameters: [...form.parameters],
    interval: form.interval,
    format: form.format,
    layout: form.format === "duckdb" ? "long" as const : form.layout,
  };
}

/** The body of POST /dem/exports. */
export function createBody(form: ExportForm): CreateExportBody {
  return {
    ...selectionBody(form),
    file_name: form.name.trim(),
    directory_structure: form.format === "duckdb" ? "flat" : form.structure,
  };
}

/**
 * What the estimate is asked for: the selection, or for a schedule its longest run (a day, a
 * week, 31 days) ending at today's midnight (stable while the user edits).
 */
export function estimateBody(form: ExportForm, now = Date.now()) {
  const body = selectionBody(form);
  if (form.repeat === "ONCE") return body;
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  const from = today.getTime() - LONGEST_PERIOD_DAYS[form.repeat] * 86_400_000;
  return {
    ...body,
    period: { from: new Date(from).toISOString(), to: today.toISOString() },
  };
}

/** The body of POST /dem/schedules (the form's repeat is its frequency). */
export function scheduleBody(form: ExportForm): ScheduleBody {
  const { period: _, ...content } = selectionBody(form);
  return {
    ...content,
    file_name: form.name.trim(),
    directory_structure: form.format === "duckdb" ? "flat" : form.structure,
    frequency: form.repeat === "ONCE" ? "DAILY" : form.repeat,
  };
}

/** The form of a schedule being edited: its selection and repeat, the period left as it is. */
export function formOfSchedule(schedule: ScheduleDto, base: ExportForm): ExportForm {
  return {
    ...base,
    name: schedule.name,
    feeders: [...schedule.feeders],
    parameters: [...schedule.parameters],
    interval: schedule.interval,
    format: schedule.format,
    layout: schedule.layout,
    structure: schedule.directory_structure,
    repeat: schedule.frequency,
  };
}

/** The PUT body of an edited schedule: the form's selection, the schedule's pause kept. */
export function editedScheduleBody(form: ExportForm, schedule: ScheduleDto): ScheduleBody {
  return { ...scheduleBody(form), active: schedule.active };
}

/** Maps a server issue path to a form field. */
export function fieldOf(path: string): ExportField | null {
  if (path === "file_name") return "name";
  if (path.startsWith("period")) return "period";
  if (path.startsWith("feeders")) return "feeders";
  if (path.startsWith("parameters")) return "parameters";
  if (path === "directory_structure") return "structure";
  if (path === "layout") return "layout";
  if (path === "frequency") return "frequency";
  return null;
}

/** A group of the picker: station group > LV group > node > feeders. */
export interface PickerNode {
  id: string;
  name: string;
  station: string;
  feeders: ExportFeederDto[];
}
export interface PickerLvGroup {
  id: string;
  name: string;
  nodes: PickerNode[];
}
export interface PickerStationGroup {
  id: string;
  name: string;
  lvGroups: PickerLvGroup[];
}

/** The feeders grouped for the picker, keeping only those matching `query` (any name level). */
export function pickerTree(
  feeders: readonly ExportFeederDto[],
  query = "",
): PickerStationGroup[] {
  const q = query.trim().toLowerCase();
  const match = (f: ExportFeederDto) =>
    !q ||
    [f.feeder_name, f.node_name, f.station_name, f.lv_group_name, f.station_group_name]
      .some((name) => name.toLowerCase().includes(q));
  const groups: PickerStationGroup[] = [];
  for (const f of feeders.filter(match)) {
    let g = groups.find((x) => x.id === f.station_group_id);
    if (!g) groups.push(g = { id: f.station_group_id, name: f.station_group_name, lvGroups: [] });
    let l = g.lvGroups.find((x) => x.id === f.lv_group_id);
    if (!l) g.lvGroups.push(l = { id: f.lv_group_id, name: f.lv_group_name, nodes: [] });
    let n = l.nodes.find((x) => x.id === f.node_id);
    if (!n) {
      l.nodes.push(n = { id: f.node_id, name: f.node_name, station: f.station_name, feeders: [] });
    }
    n.feeders.push(f);
  }
  return groups;
}

/** Every feeder id below a picker group. */
export function feedersBelow(group: PickerStationGroup | PickerLvGroup | PickerNode): string[] {
  if ("feeders" in group) return group.feeders.map((f) => f.feeder_id);
  if ("nodes" in group) return group.nodes.flatMap(feedersBelow);
  return group.lvGroups.flatMap(feedersBelow);
}

/** Toggles a set of feeders: all selected -> none of them, else all of them. */
export function toggleFeeders(selected: readonly string[], ids: readonly string[]): string[] {
  const all = ids.every((id) => selected.includes(id));
  return all
    ? selected.filter((id) => !ids.includes(id))
    : [...selected, ...ids.filter((id) => !selected.includes(id))];
}

/** Bytes as B, kB, MB or GB (decimal units, like the limit of 1e9 bytes). */
export function sizeParts(bytes: number): { value: number; unit: "B" | "kB" | "MB" | "GB" } {
  if (bytes >= 1e9) return { value: bytes / 1e9, unit: "GB" };
  if (bytes >= 1e6) return { value: bytes / 1e6, unit: "MB" };
  if (bytes >= 1e3) return { value: bytes / 1e3, unit: "kB" };
  return { value: bytes, unit: "B" };
}

/**
 * The SQL an analyst runs on the unzipped export with DuckDB: the data files (one, or every file
 * of the folders), with the hourly mean per feeder, phase and parameter as a starting point.
 */
export function duckdbQuery(
  e: { file_name: string; format: string; directory_structure: string },
): string {
  const base = e.file_name.replace(/\.zip$/, "");
  const source = e.format === "duckdb"
    ? `${base}.measurements`
    : e.format === "parquet"
    ? `read_parquet('${base}/${
      e.directory_structure === "flat" ? `${base}.parquet` : "*/**/*.parquet"
    }')`
    : `read_csv('${base}/${e.directory_structure === "flat" ? `${base}.csv` : "*/**/*.csv"}')`;
  const attach = e.format === "duckdb" ? `ATTACH '${base}/${base}.duckdb' AS ${base};\n` : "";
  return `${attach}SELECT station, node, feeder, phase, parameter, unit,
  date_trunc('hour', time_utc) AS hour, avg(value) AS mean,
  count(*) FILTER (WHERE quality = 'MISSING') AS missing
FROM ${source}
GROUP BY ALL
ORDER BY station, node, feeder, phase, parameter, hour;`;
}
