/**
 * The customer's date, time and number formats and time zone (Global Settings), for every
 * screen that shows a date or a number. 'MMM DD, YYYY' maps to the long date of the interface
 * language (spec 9); numbers have 2 digits unless told otherwise (spec 9).
 */

/** The date formats a customer can pick. */
export const DATE_FORMATS = [
  "DD.MM.YYYY",
  "DD/MM/YYYY",
  "MM/DD/YYYY",
  "YYYY-MM-DD",
  "MMM DD, YYYY",
] as const;
/** The time formats a customer can pick (24 h or 12 h). */
export const TIME_FORMATS = ["HH:mm", "HH:mm:ss", "hh:mm A", "hh:mm:ss A"] as const;
/** The number formats a customer can pick, written as 1234.56 looks in them. */
export const NUMBER_FORMATS = ["1'234.56", "1,234.56", "1.234,56", "1 234,56", "1234.56"] as const;
/** The date format that maps to the interface language's long date. */
export const LONG_DATE_FORMAT = "MMM DD, YYYY";

/** The customer settings the formatters use (a Customer satisfies it). */
export interface CustomerFormats {
  default_date_format: string;
  default_time_format: string;
  default_number_format: string;
  default_timezone: string;
}

type Instant = Date | string | number;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock parts of `at` in `timeZone` (UTC when the zone is unknown). */
function wallClock(at: Date, timeZone: string): Record<string, string> {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      return timeZone === "UTC" ? {} : wallClock(at, "UTC");
    }
    partFormatters.set(timeZone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(at).map((p) => [p.type, p.value]));
}

function toDate(value: Instant): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function applyPattern(pattern: string, parts: Record<string, string>): string {
  const hour = Number(parts.hour ?? 0) % 24;
  const tokens: Record<string, string> = {
    YYYY: parts.year ?? "",
    MM: parts.month ?? "",
    DD: parts.day ?? "",
    HH: String(hour).padStart(2, "0"),
    hh: String(hour % 12 || 12).padStart(2, "0"),
    mm: parts.minute ?? "",
    ss: parts.second ?? "",
    A: hour < 12 ? "AM" : "PM",
  };
  return pattern.replace(/YYYY|MM|DD|HH|hh|mm|ss|A/g, (token) => tokens[token] ?? token);
}

/** The date of `value` in the customer's time zone and date format; "" when invalid. */
export function formatDate(value: Instant, formats: CustomerFormats, language = "en"): string {
  const at = toDate(value);
  if (!at) return "";
  if (formats.default_date_format === LONG_DATE_FORMAT) {
    try {
      return new Intl.DateTimeFormat(language, {
        dateStyle: "long",
        timeZone: formats.default_timezone,
      }).format(at);
    } catch {
      return new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(at);
    }
  }
  return applyPattern(formats.default_date_format, wallClock(at, formats.default_timezone));
}

/** The time of `value` in the customer's time zone and time format; "" when invalid. */
export function formatTime(value: Instant, formats: CustomerFormats): string {
  const at = toDate(value);
  return at
    ? applyPattern(formats.default_time_format, wallClock(at, formats.default_timezone))
    : "";
}

/** Date and time of `value`, as the customer writes them. */
export function formatDateTime(value: Instant, formats: CustomerFormats, language = "en"): string {
  const date = formatDate(value, formats, language);
  return date ? `${date} ${formatTime(value, formats)}` : "";
}

/** Group and decimal separators of a number format. */
export function separatorsOf(numberFormat: string): { group: string; decimal: string } {
  switch (numberFormat) {
    case "1,234.56":
      return { group: ",", decimal: "." };
    case "1.234,56":
      return { group: ".", decimal: "," };
    case "1 234,56":
      return { group: "\u202f", decimal: "," };
    case "1234.56":
      return { group: "", decimal: "." };
    default:
      return { group: "'", decimal: "." };
  }
}

/** `value` with `digits` decimals in the customer's number format; "–" when not a number. */
export function formatNumber(
  value: number,
  formats: Pick<CustomerFormats, "default_number_format">,
  digits = 2,
): string {
  if (!Number.isFinite(value)) return "–";
  const { group, decimal } = separatorsOf(formats.default_number_format);
  const [whole = "0", fraction] = Math.abs(value).toFixed(digits).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const negative = value < 0 && Number(whole + (fraction ?? "")) !== 0;
  return `${negative ? "-" : ""}${grouped}${fraction ? `${decimal}${fraction}` : ""}`;
}
