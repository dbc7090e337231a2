/**
 * The SCADA forms' rules, mirrored from the server's contract (modules/scada/contract.ts): the
 * profile form parsed with the same zod schema, issues as `{path: key}` of the errors namespace;
 * the point list to and from CSV (what SCADA engineers exchange).
 */
import {
  DEADBAND_QUANTITIES,
  type DeadbandQuantity,
  type DeadbandsDto,
  IEC104_DEFAULTS,
  NO_DEADBANDS,
  type PointDto,
  type PointInput,
  type ProfileDto,
  profileInput,
  QUANTITIES,
  type Quantity,
  SCADA_LIMITS,
} from "../../../../modules/scada/contract.ts";

/** A field message: a key of the errors namespace and its placeholders. */
export interface RuleMessage {
  key: string;
  params?: Record<string, unknown>;
}

export const TIMER_FIELDS = ["t0", "t1", "t2", "t3", "k", "w"] as const;
export type TimerField = (typeof TIMER_FIELDS)[number];
export { DEADBAND_QUANTITIES };

/** The profile form as typed (strings for numbers). */
export interface ProfileForm {
  name: string;
  ip_address: string;
  port: string;
  asdu: string;
  activated: boolean;
  timers: Record<TimerField, string>;
  deadbands: Record<DeadbandQuantity, string>;
}

const deadbandTexts = (values: DeadbandsDto): Record<DeadbandQuantity, string> =>
  Object.fromEntries(DEADBAND_QUANTITIES.map((q) => [q, String(values[q])])) as Record<
    DeadbandQuantity,
    string
  >;

export function emptyProfileForm(): ProfileForm {
  return {
    name: "",
    ip_address: "",
    port: "2404",
    asdu: "",
    activated: false,
    timers: Object.fromEntries(
      TIMER_FIELDS.map((f) => [f, String(IEC104_DEFAULTS[f])]),
    ) as Record<TimerField, string>,
    deadbands: deadbandTexts(NO_DEADBANDS),
  };
}

export function profileForm(p: ProfileDto): ProfileForm {
  return {
    name: p.name,
    ip_address: p.ip_address,
    port: String(p.port),
    asdu: String(p.asdu),
    activated: p.activated,
    timers: Object.fromEntries(
      TIMER_FIELDS.map((f) => [f, String(p.timers[f])]),
    ) as Record<TimerField, string>,
    deadbands: deadbandTexts(p.deadbands),
  };
}

const number = (text: string): number | undefined => {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : Number(trimmed);
};

/** The body the API takes. */
export function profileBody(form: ProfileForm) {
  return {
    name: form.name,
    ip_address: form.ip_address.trim(),
    port: number(form.port),
    asdu: number(form.asdu),
    activated: form.activated,
    timers: Object.fromEntries(TIMER_FIELDS.map((f) => [f, number(form.timers[f])])),
    deadbands: Object.fromEntries(
      DEADBAND_QUANTITIES.map((q) => [q, number(form.deadbands[q].replace(",", "."))]),
    ),
  };
}

const PARAMS: Record<string, Record<string, unknown>> = {
  "validation.nameMin": { count: SCADA_LIMITS.nameMin },
  "validation.nameMax": { count: SCADA_LIMITS.nameMax },
};

/** The form's field errors by path (`port`, `timers.t2`), as the server would answer them. */
export function checkProfile(form: ProfileForm): Record<string, RuleMessage> {
  const parsed = profileInput.safeParse(profileBody(form));
  const out: Record<string, RuleMessage> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".");
    if (out[path]) continue;
    const key = /^[a-z]+\.[a-zA-Z0-9]+$/.test(issue.message)
      ? issue.message
      : "validation.required";
    out[path] = PARAMS[key] ? { key, params: PARAMS[key] } : { key };
  }
  return out;
}

// ---- CSV ---------------------------------------------------------------------------------------

const COLUMNS = [
  "ioa",
  "element_name",
  "quantity",
  "phase",
  "data_type",
  "activated",
  "node_id",
  "feeder_id",
] as const;

const quote = (value: string) =>
  /[;"\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/** The point list as CSV (semicolon separated, a header line, feeder order). */
export function pointsToCsv(points: readonly PointDto[]): string {
  const lines = [COLUMNS.join(";")];
  for (const p of points) {
    lines.push(
      [
        String(p.ioa),
        p.element_name,
        p.quantity,
        p.phase === null ? "" : String(p.phase),
        p.data_type,
        p.activated ? "1" : "0",
        p.node_id,
        p.feeder_id ?? "",
      ].map(quote).join(";"),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

function splitLine(line: string, separator: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (quoted) {
      if (c === '"' && line[k + 1] === '"') {
        field += '"';
        k++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      out.push(field);
      field = "";
    } else field += c;
  }
  out.push(field);
  return out;
}

/** A CSV line that cannot be read: its number (1-based, header included) and why. */
export interface CsvProblem {
  line: number;
  key: string;
}

/**
 * Reads a point list (the columns of {@link pointsToCsv} by header name, `;` or `,`); the order
 * of the lines is the feeder order. Problems name the first bad line.
 */
export function pointsFromCsv(text: string): { points: PointInput[]; problem: CsvProblem | null } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0] ?? "";
  const separator = header.includes(";") ? ";" : ",";
  const names = splitLine(header, separator).map((h) => h.trim().toLowerCase());
  const at = (name: string) => names.indexOf(name);
  if (at("ioa") < 0 || at("node_id") < 0 || at("quantity") < 0) {
    return { points: [], problem: { line: 1, key: "validation.invalidFormat" } };
  }
  const points: PointInput[] = [];
  for (let k = 1; k < lines.length; k++) {
    const cells = splitLine(lines[k]!, separator);
    const cell = (name: string) => (at(name) >= 0 ? cells[at(name)] ?? "" : "").trim();
    const ioa = Number(cell("ioa"));
    const quantity = cell("quantity") as Quantity;
    const phase = cell("phase") === "" ? null : Number(cell("phase"));
    if (!Number.isInteger(ioa) || ioa < SCADA_LIMITS.ioaMin || ioa > SCADA_LIMITS.ioaMax) {
      return { points, problem: { line: k + 1, key: "validation.scadaAddressRange" } };
    }
    if (!QUANTITIES.includes(quantity) || !cell("node_id")) {
      return { points, problem: { line: k + 1, key: "validation.invalidValue" } };
    }
    if (phase !== null && ![1, 2, 3].includes(phase)) {
      return { points, problem: { line: k + 1, key: "validation.invalidValue" } };
    }
    points.push({
      ioa,
      node_id: cell("node_id"),
      feeder_id: cell("feeder_id") || null,
      quantity,
      phase,
      activated: !["0", "false", "no"].includes(cell("activated").toLowerCase()),
    });
  }
  return { points, problem: null };
}

/** `list` with the item at `from` moved to index `to` (clamped); the same list when unmoved. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from === target || from < 0 || from >= list.length) return list as T[];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item!);
  return next;
}
