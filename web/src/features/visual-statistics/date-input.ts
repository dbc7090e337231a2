/**
 * Custom periods are typed in the customer's date and time format and time zone (Global
 * Settings), as every date on screen is shown, instead of the browser's locale of a native
 * date picker. The long date format ('MMM DD, YYYY') is typed as YYYY-MM-DD.
 */
import { LONG_DATE_FORMAT } from "../../lib/format.ts";
import { fromWallClock, toWallClock } from "./period.ts";

/** The pattern a date and time is typed in, e.g. `DD.MM.YYYY HH:mm`. */
export function inputPattern(
  formats: { default_date_format: string; default_time_format: string },
): string {
  const date = formats.default_date_format === LONG_DATE_FORMAT
    ? "YYYY-MM-DD"
    : formats.default_date_format;
  return `${date} ${formats.default_time_format}`;
}

const TOKENS = /YYYY|MM|DD|HH|hh|mm|ss|A/g;

/** Instant `ms` written in `pattern` on the clock of `timeZone`. */
export function formatInput(ms: number, pattern: string, timeZone: string): string {
  if (!Number.isFinite(ms)) return "";
  const wall = toWallClock(ms, timeZone);
  const hour = Number(wall.slice(11, 13));
  const parts: Record<string, string> = {
    YYYY: wall.slice(0, 4),
    MM: wall.slice(5, 7),
    DD: wall.slice(8, 10),
    HH: wall.slice(11, 13),
    hh: String(hour % 12 || 12).padStart(2, "0"),
    mm: wall.slice(14, 16),
    // Offsets are whole minutes, so the seconds are the same on every clock.
    ss: String(new Date(ms).getUTCSeconds()).padStart(2, "0"),
    A: hour < 12 ? "AM" : "PM",
  };
  return pattern.replace(TOKENS, (token) => parts[token] ?? token);
}

/**
 * The instant a text typed in `pattern` on the clock of `timeZone` stands for, or NaN when the
 * text does not follow the pattern or names no real date. Day, month and hour may have one
 * digit; spaces around the separators are tolerated.
 */
export function parseInput(text: string, pattern: string, timeZone: string): number {
  const order: string[] = [];
  const source = pattern.split(TOKENS);
  const tokens = pattern.match(TOKENS) ?? [];
  let regex = "^\\s*";
  source.forEach((literal, k) => {
    regex += literal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/\s+/g, "\\s*");
    const token = tokens[k];
    if (!token) return;
    order.push(token);
    regex += token === "YYYY"
      ? "(\\d{4})"
      : token === "A"
      ? "\\s*([AaPp][Mm])"
      : token === "mm" || token === "ss"
      ? "(\\d{2})"
      : "(\\d{1,2})";
  });
  const match = new RegExp(`${regex}\\s*$`).exec(text);
  if (!match) return Number.NaN;
  const value: Record<string, string> = {};
  order.forEach((token, k) => (value[token] = match[k + 1] ?? ""));
  let hour = Number(value.HH ?? value.hh ?? 0);
  if (value.hh !== undefined) {
    if (hour < 1 || hour > 12) return Number.NaN;
    hour = (hour % 12) + (value.A?.toUpperCase() === "PM" ? 12 : 0);
  }
  const minute = Number(value.mm ?? 0);
  const second = Number(value.ss ?? 0);
  if (minute > 59 || second > 59) return Number.NaN;
  const two = (n: number | string) => String(n).padStart(2, "0");
  const wall = `${value.YYYY}-${two(value.MM ?? "")}-${two(value.DD ?? "")}T${two(hour)}:${
    two(minute)
  }`;
  return fromWallClock(wall, timeZone) + second * 1000;
}
