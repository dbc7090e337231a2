/**
 * The global settings rules for the forms: the limits and lists are the server's own
 * (modules/customers/settings_rules.ts, pure), the message keys the same (`errors:settings.*`),
 * so a form refuses what the server would refuse, with the same translated text.
 */
import { type CountryCode, isValidPhoneNumber } from "libphonenumber-js";
import type { FieldMessage } from "./field-errors.ts";

export {
  APPLICATIONS,
  DEFAULT_APPLICATIONS,
  FREQUENCIES,
  LANGUAGES,
  LV_NOMINAL_VOLTAGES,
  MAX_DOMAINS,
  MAX_TEXT,
  RANGES,
} from "../../../modules/customers/settings_rules.ts";
import {
  checkTileUrl,
  COUNTRY_CODES,
  MAX_DOMAINS,
  MAX_TEXT,
  MAX_TILE_URL,
  RANGES,
  TILE_URL_PARAMS,
} from "../../../modules/customers/settings_rules.ts";
export type RangeField = keyof typeof RANGES;
/** Logo uploads: JPEG or PNG, at most 3 MB, 512x512 recommended (spec 5). */
export const MAX_LOGO_BYTES = 3 * 1024 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg"];
export const RECOMMENDED_LOGO_SIDE = 512;

/** A broken rule: a key of the `errors` namespace and its placeholders. */
export type FieldError = FieldMessage;
export type FieldErrors = Record<string, FieldError>;

const EMAIL = /^[^\s@]{1,64}@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The current ISO 3166-1 countries (the server's list) with their names in `language`; a code
 * the browser cannot name shows as the code.
 */
export function countries(language: string): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([language, "en"], { type: "region", fallback: "code" });
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((x, y) => x.name.localeCompare(y.name, language));
}

/** IANA time zones of the browser, UTC first. */
export function timeZones(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
}

/**
 * Checks the online basemap fields (the server's rule): an empty URL is none; a URL is an https
 * template with {z}/{x}/{y}, and then an attribution is required.
 */
export function checkTiles(url: string, attribution: string): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  if (!url.trim()) return out;
  const key = checkTileUrl(url.trim());
  if (key) {
    out["map_tiles.url"] = key === "settings.tooLong"
      ? { key, params: { count: MAX_TILE_URL } }
      : { key, params: TILE_URL_PARAMS };
  }
  const text = checkText(attribution, true);
  if (text) out["map_tiles.attribution"] = text;
  return out;
}

/** Checks a text field: required or not, at most 250 characters. */
export function checkText(value: string, required = false): FieldError | null {
  const text = value.trim();
  if (!text) return required ? { key: "settings.required" } : null;
  return text.length > MAX_TEXT ? { key: "settings.tooLong", params: { count: MAX_TEXT } } : null;
}

/** Checks a number typed into a field against its range (2 decimals, integers for zoom). */
export function checkNumber(
  raw: string,
  field: RangeField,
  options: { integer?: boolean; optional?: boolean } = {},
): FieldError | null {
  const text = raw.trim().replace(",", ".");
  if (!text) return options.optional ? null : { key: "settings.required" };
  if (!/^-?\d+(\.\d+)?$/.test(text)) return { key: "settings.number" };
  const value = Number(text);
  if (options.integer && !Number.isInteger(value)) return { key: "settings.integer" };
  const { min, max, decimals } = RANGES[field];
  if (!options.integer && (text.split(".")[1]?.length ?? 0) > decimals) {
    return { key: "settings.decimals", params: { count: decimals } };
  }
  return value < min || value > max ? { key: "settings.outOfRange", params: { min, max } } : null;
}

/** Parses a number field the user typed (comma or point as decimal mark). */
export function parseNumber(raw: string): number | null {
  const text = raw.trim().replace(",", ".");
  return text ? Number(text) : null;
}

export function checkEmail(value: string): FieldError | null {
  const text = value.trim();
  if (!text) return null;
  return checkText(text) ?? (EMAIL.test(text) ? null : { key: "settings.invalidEmail" });
}

export function checkPhone(value: string, country: string): FieldError | null {
  const text = value.trim();
  if (!text) return null;
  const valid = isValidPhoneNumber(
    text,
    /^[A-Z]{2}$/.test(country) ? country as CountryCode : undefined,
  );
  return checkText(text) ?? (valid ? null : { key: "settings.invalidPhone" });
}

/** Splits the domains field (commas, spaces or lines) into normalised names. */
export function parseDomains(raw: string): string[] {
  return [...new Set(raw.split(/[\s,;]+/).map((d) => d.trim().toLowerCase()).filter(Boolean))];
}

export function checkDomains(domains: readonly string[]): FieldError | null {
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad) return { key: "settings.invalidDomain", params: { domain: bad } };
  if (!domains.length) return { key: "settings.domainRequired" };
  return domains.length > MAX_DOMAINS
    ? { key: "settings.tooManyDomains", params: { count: MAX_DOMAINS } }
    : null;
}

/** Checks the available and default languages (spec 5). */
export function checkLanguages(
  available: readonly string[],
  defaultLanguage: string,
): { available: FieldError | null; default: FieldError | null } {
  return {
    available: available.length ? null : { key: "settings.languageRequired" },
    default: !defaultLanguage
      ? { key: "settings.defaultLanguageRequired" }
      : available.includes(defaultLanguage)
      ? null
      : { key: "settings.defaultLanguageNotAvailable" },
  };
}

/** Checks a logo file before upload: type by its header bytes is the server's job. */
export function checkLogoFile(file: { size: number; type: string }): FieldError | null {
  if (!LOGO_TYPES.includes(file.type)) return { key: "settings.logoNotImage" };
  return file.size > MAX_LOGO_BYTES ? { key: "settings.logoTooLarge" } : null;
}

/** The three warning thresholds as typed into a form. */
export interface ThresholdsForm {
  overvoltage_pct: string;
  undervoltage_pct: string;
  overcurrent_pct: string;
}

/** Errors of the thresholds, keyed like the server's fields. */
export function checkThresholds(form: ThresholdsForm): FieldErrors {
  const errors: FieldErrors = {};
  for (const name of Object.keys(form) as (keyof ThresholdsForm)[]) {
    const field = `warning_thresholds.${name}` as RangeField;
    const error = checkNumber(form[name], field);
    if (error) errors[field] = error;
  }
  return errors;
}
