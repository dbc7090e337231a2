/**
 * Numbers, dates and times as the customer writes them (Global Settings: date, time and number
 * formats, time zone), for the PDF. The same rules as the web app's `web/src/lib/format.ts`
 * (which the server cannot import): 'MMM DD, YYYY' is the long date of the report's language.
 */

/** The customer's formats as the customers module stores them. */
export interface CustomerFormats {
  dateFormat: string;
  timeFormat: string;
  numberFormat: string;
  timezone: string;
}

/** Defaults of a customer whose settings are not completed. */
export const DEFAULT_FORMATS: Readonly<CustomerFormats> = Object.freeze({
  dateFormat: "YYYY-MM-DD",
  timeFormat: "HH:mm",
  numberFormat: "1234.56",
  timezone: "UTC",
});

/** What the PDF's parts format with. */
export interface Formatters {
  /** `v` with at most `digits` decimals (trailing zeros dropped); "–" for null or NaN. */
  number(v: number | null, digits?: number): string;
  /** A whole number with the group separator. */
  integer(v: number): string;
  /** Date and time. */
  date(d: Date): string;
  /** The date only. */
  day(d: Date): string;
  /** The time only, with seconds and milliseconds (event starts). */
  time(d: Date): string;
  /** The time zone actually used (UTC when the customer's is unknown). */
  timezone: string;
}

function separatorsOf(numberFormat: string): { group: string; decimal: string } {
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

function validZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** Formatters of the customer's formats in the report's language. */
export function formatters(language: string, formats: CustomerFormats): Formatters {
  const timezone = validZone(formats.timezone);
  const { group, decimal } = separatorsOf(formats.numberFormat);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: timezone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const long = new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: timezone });
  const wall = (d: Date) =>
    Object.fromEntries(parts.formatToParts(d).map((p) => [p.type, p.value]));
  const pattern = (p: string, w: Record<string, string>) => {
    const hour = Number(w.hour ?? 0) % 24;
    const tokens: Record<string, string> = {
      YYYY: w.year ?? "",
      MM: w.month ?? "",
      DD: w.day ?? "",
      HH: String(hour).padStart(2, "0"),
      hh: String(hour % 12 || 12).padStart(2, "0"),
      mm: w.minute ?? "",
      ss: w.second ?? "",
      SSS: w.ms ?? "000",
      A: hour < 12 ? "AM" : "PM",
    };
    return p.replace(/YYYY|SSS|MM|DD|HH|hh|mm|ss|A/g, (t) => tokens[t] ?? t);
  };
  const day = (d: Date) =>
    formats.dateFormat === "MMM DD, YYYY" ? long.format(d) : pattern(formats.dateFormat, wall(d));
  const grouped = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const number = (v: number | null, digits = 2) => {
    if (v === null || !Number.isFinite(v)) return "–";
    const fixed = Math.abs(v).toFixed(digits);
    const [whole = "0", rawFraction = ""] = fixed.split(".");
    const fraction = rawFraction.replace(/0+$/, "");
    const negative = v < 0 && Number(fixed) !== 0;
    return `${negative ? "-" : ""}${grouped(whole)}${fraction ? decimal + fraction : ""}`;
  };
  return {
    number,
    integer: (v) => number(Math.round(v), 0),
    day,
    date: (d) => `${day(d)} ${pattern(formats.timeFormat, wall(d))}`,
    time: (d) => {
      const precise = formats.timeFormat.includes("ss")
        ? formats.timeFormat.replace("ss", `ss${decimal}SSS`)
        : formats.timeFormat.replace("mm", `mm:ss${decimal}SSS`);
      return pattern(precise, { ...wall(d), ms: String(d.getTime() % 1000).padStart(3, "0") });
    },
    timezone,
  };
}

/** Epoch ms of the local midnights (in `timeZone`) inside `[from, to)`. */
export function localMidnights(from: number, to: number, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: validZone(timeZone),
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const hour = 3_600_000;
  const sinceMidnight = (t: number) => {
    const w = Object.fromEntries(parts.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
    return ((Number(w.hour) % 24) * 3600 + Number(w.minute) * 60 + Number(w.second)) * 1000;
  };
  const found = new Set<number>();
  for (let t = from - 26 * hour; t < to + 26 * hour; t += 6 * hour) {
    let midnight = t - sinceMidnight(t) - (t % 1000);
    // A DST change between midnight and t moved the offset: correct by what is left over.
    const left = sinceMidnight(midnight);
    if (left) midnight += left > 12 * hour ? 24 * hour - left : -left;
    if (midnight >= from && midnight < to) found.add(midnight);
  }
  const out = [...found].sort((a, b) => a - b);
  return out;
}
