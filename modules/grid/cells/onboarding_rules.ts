/**
 * The rules of cell onboarding (spec 5, docs/contracts.md "Cell onboarding"): serial numbers and
 * the CSV import of serial numbers, checked by the server and by the web form with the same
 * message keys. Pure: imports nothing.
 */
/** Device models a cell can be (DTVI devices take no I/O modules, spec 5). */
export const DEVICE_MODELS = ["GW4", "DTVI"] as const;
export type DeviceModel = (typeof DEVICE_MODELS)[number];

/** The lists a new cell can start in (spec 3 "Cell" type; INSTALLED needs a node first). */
export const REGISTRATION_TYPES = ["IN_STOCK", "WAITING_FOR_INSTALLATION"] as const;
export type RegistrationType = (typeof REGISTRATION_TYPES)[number];

/**
 * The newest version of docs/ingestion-protocol.md, named in the provisioning file: a new cell
 * sends `"protocol": 2` batches (version 1 stays accepted for the deployed firmware).
 */
export const PROTOCOL_VERSION = 2;

/**
 * Serial numbers: 3 to 40 characters, letters, digits and `-` `_` `.`, beginning and ending
 * with a letter or digit. Stored in capitals: `gw-2026-0100` and `GW-2026-0100` are one device.
 */
export const SERIAL_NUMBER = { min: 3, max: 40 } as const;
const SERIAL_SHAPE = /^[A-Z0-9](?:[A-Z0-9._-]*[A-Z0-9])?$/;

/** One import holds at most this many cells, in at most this many characters. */
export const IMPORT_MAX_CELLS = 1000;
export const IMPORT_MAX_CHARS = 100_000;
/** A refused import lists at most this many line problems (then one line saying how many more). */
export const IMPORT_MAX_ISSUES = 100;

/** A message key of the `errors` namespace with its placeholders. */
export interface RuleMessage {
  key: string;
  params?: Record<string, unknown>;
}

/** A serial number as stored: trimmed, in capitals. */
export function normalizeSerialNumber(raw: string): string {
  return raw.trim().toUpperCase();
}

/** The problem of a (normalized) serial number, or null when it is valid. */
export function serialNumberRule(serial: string): RuleMessage | null {
  if (!serial) return { key: "validation.required" };
  if (serial.length < SERIAL_NUMBER.min) {
    return { key: "validation.minChars", params: { count: SERIAL_NUMBER.min } };
  }
  if (serial.length > SERIAL_NUMBER.max) {
    return { key: "validation.maxChars", params: { count: SERIAL_NUMBER.max } };
  }
  return SERIAL_SHAPE.test(serial) ? null : { key: "validation.serialNumberFormat" };
}

/** One cell line of an import. */
export interface CsvCell {
  /** 1-based line number in the file. */
  line: number;
  serial_number: string;
  device_model: DeviceModel;
}

/** A problem of an import: on a line (`csv.<line>`) or of the whole file (`csv`). */
export interface CsvProblem extends RuleMessage {
  line: number | null;
}

const HEADER = /^(serial[ _-]?(number|no)?|s\/n)$/i;

/**
 * Reads an import: one cell per line, `serial_number[,device_model]` (`,` or `;`, fields may
 * be quoted), an optional header line, empty lines and `#` comments skipped. The device model
 * defaults to `model`. Every problem is listed (bad serial number, unknown model, a serial
 * number repeated in the file, too many columns); the server adds "already registered".
 */
export function parseCellCsv(
  text: string,
  model: DeviceModel = "GW4",
): { cells: CsvCell[]; problems: CsvProblem[] } {
  const cells: CsvCell[] = [];
  const problems: CsvProblem[] = [];
  const firstLine = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (!content || content.startsWith("#")) return;
    const fields = content.split(/[,;\t]/).map((f) => f.trim().replace(/^"(.*)"$/, "$1").trim());
    while (fields.length > 1 && fields[fields.length - 1] === "") fields.pop();
    const serial = normalizeSerialNumber(fields[0] ?? "");
    if (!cells.length && !problems.length && HEADER.test(fields[0] ?? "")) return;
    const problem = (p: RuleMessage) =>
      problems.push({ ...p, params: { ...p.params, line, serial_number: serial }, line });
    if (fields.length > 2) {
      return void problem({ key: "validation.csvColumns", params: { max: 2 } });
    }
    const rule = serialNumberRule(serial);
    if (rule) return void problem(rule);
    const chosen = (fields[1] ?? "").toUpperCase() || model;
    if (!(DEVICE_MODELS as readonly string[]).includes(chosen)) {
      return void problem({ key: "validation.deviceModelInvalid" });
    }
    const earlier = firstLine.get(serial);
    if (earlier !== undefined) {
      return void problem({ key: "validation.serialNumberRepeated", params: { first: earlier } });
    }
    firstLine.set(serial, line);
    cells.push({ line, serial_number: serial, device_model: chosen as DeviceModel });
  });
  if (!cells.length && !problems.length) problems.push({ key: "validation.csvEmpty", line: null });
  if (cells.length > IMPORT_MAX_CELLS) {
    problems.push({
      key: "validation.csvTooManyCells",
      params: { count: IMPORT_MAX_CELLS },
      line: null,
    });
  }
  return { cells, problems };
}
