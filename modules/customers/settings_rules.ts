/**
 * The rules of the global settings (spec 2.8, 3, 5, 9) as one pure validator: every rule
 * answers a catalogue key (`settings.*`) with the field it concerns, so the web form can show
 * the translated text next to the field. The web form mirrors these rules
 * (web/src/features/global-settings/settings-rules.ts).
 */
import { isValidPhoneNumber } from "libphonenumber-js";

/** Customer manager form fields: at most 250 characters (spec 5). */
export const MAX_TEXT = 250;
export const LANGUAGES = ["en", "fr", "de", "uk"] as const;
export const DATE_FORMATS = [
  "DD.MM.YYYY",
  "DD/MM/YYYY",
  "MM/DD/YYYY",
  "YYYY-MM-DD",
  "MMM DD, YYYY",
];
export const TIME_FORMATS = ["HH:mm", "HH:mm:ss", "hh:mm A", "hh:mm:ss A"];
export const NUMBER_FORMATS = ["1'234.56", "1,234.56", "1.234,56", "1 234,56", "1234.56"];
/** Nominal LV voltage pairs phase/line of spec 9. */
export const LV_NOMINAL_VOLTAGES = [
  "277/480",
  "250/433",
  "240/415",
  "230/400",
  "220/380",
  "130/225",
  "120/210",
  "115/200",
  "110/190",
  "100/175",
];
export const FREQUENCIES = [50, 60];
/** Applications a customer can be given; the first two are the default app keys of spec 6. */
export const APPLICATIONS = [
  "app:grid-metering",
  "hes:data-export",
  "app:grid-monitoring",
  "app:visual-statistics",
  "app:power-quality",
  "app:io-monitoring",
  "hes:infrastructure-setup",
  "hes:io-configuration",
  "hes:scada-connector",
];
export const DEFAULT_APPLICATIONS = ["app:grid-metering", "hes:data-export"];
/**
 * Numeric ranges (inclusive) and decimals: 2 as the spec's numeric ranges, 6 for coordinates
 * (about 0.1 m); docs/decisions.md explains the choices.
 */
export const RANGES = {
  default_mv_nominal_voltage: { min: 1000, max: 52000, decimals: 2 },
  default_map_zoom_level: { min: 5, max: 24, decimals: 0 },
  "map_center.lat": { min: -90, max: 90, decimals: 6 },
  "map_center.lng": { min: -180, max: 180, decimals: 6 },
  "warning_thresholds.overvoltage_pct": { min: 1, max: 20, decimals: 2 },
  "warning_thresholds.undervoltage_pct": { min: 1, max: 20, decimals: 2 },
  "warning_thresholds.overcurrent_pct": { min: 50, max: 200, decimals: 2 },
} as const;
export const MAX_DOMAINS = 20;

/** One broken rule: a catalogue key, the field and the text's placeholders. */
export interface SettingsIssue {
  field: string;
  key: string;
  params?: Record<string, unknown>;
}

/** The warning thresholds in percent of nominal. */
export interface WarningThresholds {
  overvoltage_pct: number;
  undervoltage_pct: number;
  overcurrent_pct: number;
}

/** The editable settings, as the PUT body carries them. */
export interface SettingsInput {
  name: string;
  street: string | null;
  postcode: string | null;
  city: string | null;
  country: string;
  technical_contact: { name: string | null; email: string | null; phone: string | null };
  default_date_format: string;
  default_time_format: string;
  default_number_format: string;
  default_timezone: string;
  default_language: string;
  available_languages: string[];
  authorized_email_domains: string[];
  default_frequency: number;
  default_lv_nominal_voltage: string;
  default_mv_nominal_voltage: number | null;
  map_center: { lat: number; lng: number };
  default_map_zoom_level: number;
  warning_thresholds: WarningThresholds;
  /** Only super-admins change it; absent means unchanged. */
  applications?: string[];
}

const EMAIL = /^[^\s@]{1,64}@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** Region codes ICU names that are not countries. */
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ"]);
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const timeZones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);

/** True for an ISO 3166-1 alpha-2 country code. */
export function isCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) &&
    regionNames.of(code) !== undefined;
}

/** True for an IANA time zone name the runtime knows. */
export function isTimeZone(zone: string): boolean {
  return timeZones.has(zone);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Collects issues while reading an untrusted body. */
class Reader {
  readonly issues: SettingsIssue[] = [];
  constructor(private readonly body: Obj) {}

  fail(field: string, key: string, params?: Record<string, unknown>): void {
    this.issues.push(params ? { field, key, params } : { field, key });
  }

  value(path: string): unknown {
    return path.split(".").reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), this.body);
  }

  /** A trimmed text up to 250 characters; `null` when optional and empty. */
  text(path: string, required: true): string;
  text(path: string, required: false): string | null;
  text(path: string, required: boolean): string | null {
    const raw = this.value(path);
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      this.fail(path, "settings.invalidValue");
      return null;
    }
    const text = (raw ?? "").trim();
    if (!text) {
      if (required) this.fail(path, "settings.required");
      return required ? "" : null;
    }
    if (text.length > MAX_TEXT) this.fail(path, "settings.tooLong", { count: MAX_TEXT });
    return text;
  }

  choice<T>(path: string, allowed: readonly T[]): T {
    const raw = this.value(path);
    if (raw === undefined || raw === null || raw === "") this.fail(path, "settings.required");
    else if (!allowed.includes(raw as T)) this.fail(path, "settings.invalidChoice");
    return raw as T;
  }

  number(path: keyof typeof RANGES, options: { integer?: boolean; optional?: boolean } = {}) {
    const raw = this.value(path);
    if ((raw === undefined || raw === null) && options.optional) return null;
    const { min, max, decimals } = RANGES[path];
    if (typeof raw !== "number" || !Number.isFinite(raw)) {
      this.fail(path, raw === undefined || raw === null ? "settings.required" : "settings.number");
      return 0;
    }
    if (options.integer && !Number.isInteger(raw)) this.fail(path, "settings.integer");
    else if (Number(raw.toFixed(decimals)) !== raw) {
      this.fail(path, "settings.decimals", { count: decimals });
    }
    if (raw < min || raw > max) this.fail(path, "settings.outOfRange", { min, max });
    return raw;
  }

  strings(path: string): string[] {
    const raw = this.value(path);
    if (!Array.isArray(raw) || !raw.every((v) => typeof v === "string")) {
      this.fail(path, "settings.invalidValue");
      return [];
    }
    return raw.map((v) => v.trim());
  }
}

/** Reads the warning thresholds of a body (also the grid monitoring settings call). */
export function readThresholds(
  body: unknown,
): { value: WarningThresholds; issues: SettingsIssue[] } {
  const r = new Reader(isObj(body) ? body : {});
  const value = {
    overvoltage_pct: r.number("warning_thresholds.overvoltage_pct") ?? 0,
    undervoltage_pct: r.number("warning_thresholds.undervoltage_pct") ?? 0,
    overcurrent_pct: r.number("warning_thresholds.overcurrent_pct") ?? 0,
  };
  return { value, issues: r.issues };
}

/** Validates a PUT body; `issues` is empty when every rule holds. */
export function readSettings(body: unknown): { value: SettingsInput; issues: SettingsIssue[] } {
  const r = new Reader(isObj(body) ? body : {});
  const email = r.text("technical_contact.email", false)?.toLowerCase() ?? null;
  if (email && !EMAIL.test(email)) r.fail("technical_contact.email", "settings.invalidEmail");
  const country = (r.text("country", true) ?? "").toUpperCase();
  if (country && !isCountry(country)) r.fail("country", "settings.invalidCountry");
  const phone = r.text("technical_contact.phone", false);
  if (phone && !isValidPhoneNumber(phone, isCountry(country) ? country as never : undefined)) {
    r.fail("technical_contact.phone", "settings.invalidPhone");
  }
  const timezone = r.text("default_timezone", true);
  if (timezone && !isTimeZone(timezone)) r.fail("default_timezone", "settings.invalidTimezone");

  const languages = [...new Set(r.strings("available_languages"))];
  if (languages.some((l) => !(LANGUAGES as readonly string[]).includes(l))) {
    r.fail("available_languages", "settings.invalidChoice");
  } else if (!languages.length) r.fail("available_languages", "settings.languageRequired");
  const language = r.value("default_language");
  if (typeof language !== "string" || !language) {
    r.fail("default_language", "settings.defaultLanguageRequired");
  } else if (!languages.includes(language)) {
    r.fail("default_language", "settings.defaultLanguageNotAvailable");
  }

  const domains = [...new Set(r.strings("authorized_email_domains").map((d) => d.toLowerCase()))]
    .filter(Boolean);
  const badDomain = domains.find((d) => !DOMAIN.test(d));
  if (badDomain) {
    r.fail("authorized_email_domains", "settings.invalidDomain", { domain: badDomain });
  } else if (!domains.length) r.fail("authorized_email_domains", "settings.domainRequired");
  else if (domains.length > MAX_DOMAINS) {
    r.fail("authorized_email_domains", "settings.tooManyDomains", { count: MAX_DOMAINS });
  }

  let applications: string[] | undefined;
  if (r.value("applications") !== undefined) {
    applications = [...new Set(r.strings("applications"))];
    if (applications.some((a) => !APPLICATIONS.includes(a))) {
      r.fail("applications", "settings.invalidChoice");
    } else if (!DEFAULT_APPLICATIONS.every((a) => applications!.includes(a))) {
      r.fail("applications", "settings.defaultApplicationsRequired");
    }
  }

  const thresholds = readThresholds(body);
  const value: SettingsInput = {
    name: r.text("name", true),
    street: r.text("street", false),
    postcode: r.text("postcode", false),
    city: r.text("city", false),
    country,
    technical_contact: { name: r.text("technical_contact.name", false), email, phone },
    default_date_format: r.choice("default_date_format", DATE_FORMATS),
    default_time_format: r.choice("default_time_format", TIME_FORMATS),
    default_number_format: r.choice("default_number_format", NUMBER_FORMATS),
    default_timezone: timezone,
    default_language: language as string,
    available_languages: languages,
    authorized_email_domains: domains,
    default_frequency: r.choice("default_frequency", FREQUENCIES),
    default_lv_nominal_voltage: r.choice("default_lv_nominal_voltage", LV_NOMINAL_VOLTAGES),
    default_mv_nominal_voltage: r.number("default_mv_nominal_voltage", { optional: true }),
    map_center: { lat: r.number("map_center.lat") ?? 0, lng: r.number("map_center.lng") ?? 0 },
    default_map_zoom_level: r.number("default_map_zoom_level", { integer: true }) ?? 0,
    warning_thresholds: thresholds.value,
  };
  if (applications) value.applications = applications;
  return { value, issues: [...r.issues, ...thresholds.issues] };
}
