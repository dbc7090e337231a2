/**
 * The Global Settings form model: values as typed (strings), keyed by the server's field paths so
 * that client and server errors land on the same field.
 */
import { serverErrors } from "../../lib/field-errors.ts";
import type { ErrorBody as ApiErrorBody } from "../../../../kernel/contract.ts";
import type { CustomerSettingsDto as CustomerSettings } from "../../../../modules/customers/contract.ts";
import {
  checkDomains,
  checkEmail,
  checkLanguages,
  checkNumber,
  checkPhone,
  checkText,
  checkTiles,
  type FieldError,
  type FieldErrors,
  parseDomains,
  parseNumber,
} from "../../lib/settings-rules.ts";

/** The settings as `GET /csm/customers/{cid}/settings` answers them. */
export type { CustomerSettings };

export const TEXT_FIELDS = [
  "name",
  "street",
  "postcode",
  "city",
  "country",
  "technical_contact.name",
  "technical_contact.email",
  "technical_contact.phone",
  "default_date_format",
  "default_time_format",
  "default_number_format",
  "default_timezone",
  "default_language",
  "authorized_email_domains",
  "default_frequency",
  "default_lv_nominal_voltage",
  "default_mv_nominal_voltage",
  "map_center.lat",
  "map_center.lng",
  "default_map_zoom_level",
  "map_tiles.url",
  "map_tiles.attribution",
  "warning_thresholds.overvoltage_pct",
  "warning_thresholds.undervoltage_pct",
  "warning_thresholds.overcurrent_pct",
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** The form's state. */
export interface SettingsForm {
  text: Record<TextField, string>;
  available_languages: string[];
  applications: string[];
}

const str = (
  v: string | number | null | undefined,
) => (v === null || v === undefined ? "" : String(v));

/** The form filled from the stored settings. */
export function formFromSettings(s: CustomerSettings): SettingsForm {
  return {
    text: {
      name: s.name ?? "",
      street: str(s.street),
      postcode: str(s.postcode),
      city: str(s.city),
      country: s.country,
      "technical_contact.name": str(s.technical_contact.name),
      "technical_contact.email": str(s.technical_contact.email),
      "technical_contact.phone": str(s.technical_contact.phone),
      default_date_format: s.default_date_format,
      default_time_format: s.default_time_format,
      default_number_format: s.default_number_format,
      default_timezone: s.default_timezone,
      default_language: str(s.default_language),
      authorized_email_domains: s.authorized_email_domains.join("\n"),
      default_frequency: str(s.default_frequency),
      default_lv_nominal_voltage: str(s.default_lv_nominal_voltage),
      default_mv_nominal_voltage: str(s.default_mv_nominal_voltage),
      "map_center.lat": str(s.map_center.lat),
      "map_center.lng": str(s.map_center.lng),
      default_map_zoom_level: str(s.default_map_zoom_level),
      "map_tiles.url": s.map_tiles?.url ?? "",
      "map_tiles.attribution": s.map_tiles?.attribution ?? "",
      "warning_thresholds.overvoltage_pct": str(s.warning_thresholds.overvoltage_pct),
      "warning_thresholds.undervoltage_pct": str(s.warning_thresholds.undervoltage_pct),
      "warning_thresholds.overcurrent_pct": str(s.warning_thresholds.overcurrent_pct),
    },
    available_languages: [...s.available_languages],
    applications: [...s.applications],
  };
}

/** Every rule of the server, checked in the browser; empty when the form may be sent. */
export function validateForm(form: SettingsForm): FieldErrors {
  const v = form.text;
  const checks: [string, FieldError | null][] = [
    ["name", checkText(v.name, true)],
    ["street", checkText(v.street)],
    ["postcode", checkText(v.postcode)],
    ["city", checkText(v.city)],
    ["country", checkText(v.country, true)],
    ["technical_contact.name", checkText(v["technical_contact.name"])],
    ["technical_contact.email", checkEmail(v["technical_contact.email"])],
    ["technical_contact.phone", checkPhone(v["technical_contact.phone"], v.country)],
    ["default_timezone", checkText(v.default_timezone, true)],
    ["authorized_email_domains", checkDomains(parseDomains(v.authorized_email_domains))],
    ["default_lv_nominal_voltage", checkText(v.default_lv_nominal_voltage, true)],
    [
      "default_mv_nominal_voltage",
      checkNumber(v.default_mv_nominal_voltage, "default_mv_nominal_voltage", { optional: true }),
    ],
    ["map_center.lat", checkNumber(v["map_center.lat"], "map_center.lat")],
    ["map_center.lng", checkNumber(v["map_center.lng"], "map_center.lng")],
    [
      "default_map_zoom_level",
      checkNumber(v.default_map_zoom_level, "default_map_zoom_level", { integer: true }),
    ],
    ...Object.entries(checkTiles(v["map_tiles.url"], v["map_tiles.attribution"])),
    ...(
      [
        "warning_thresholds.overvoltage_pct",
        "warning_thresholds.undervoltage_pct",
        "warning_thresholds.overcurrent_pct",
      ] as const
    ).map((f) => [f, checkNumber(v[f], f)] as [string, FieldError | null]),
  ];
  const languages = checkLanguages(form.available_languages, v.default_language);
  checks.push(["available_languages", languages.available]);
  checks.push(["default_language", languages.default]);
  return Object.fromEntries(checks.filter((c): c is [string, FieldError] => c[1] !== null));
}

const orNull = (text: string) => text.trim() || null;

/** The PUT body; `withApplications` only for super-admins (the server refuses others). */
export function bodyFromForm(form: SettingsForm, withApplications: boolean) {
  const v = form.text;
  return {
    name: v.name.trim(),
    street: orNull(v.street),
    postcode: orNull(v.postcode),
    city: orNull(v.city),
    country: v.country,
    technical_contact: {
      name: orNull(v["technical_contact.name"]),
      email: orNull(v["technical_contact.email"]),
      phone: orNull(v["technical_contact.phone"]),
    },
    default_date_format: v.default_date_format,
    default_time_format: v.default_time_format,
    default_number_format: v.default_number_format,
    default_timezone: v.default_timezone,
    default_language: v.default_language,
    available_languages: form.available_languages,
    authorized_email_domains: parseDomains(v.authorized_email_domains),
    default_frequency: Number(v.default_frequency),
    default_lv_nominal_voltage: v.default_lv_nominal_voltage,
    default_mv_nominal_voltage: parseNumber(v.default_mv_nominal_voltage),
    map_center: { lat: parseNumber(v["map_center.lat"]), lng: parseNumber(v["map_center.lng"]) },
    default_map_zoom_level: parseNumber(v.default_map_zoom_level),
    map_tiles: v["map_tiles.url"].trim()
      ? { url: v["map_tiles.url"].trim(), attribution: v["map_tiles.attribution"].trim() }
      : null,
    warning_thresholds: {
      overvoltage_pct: parseNumber(v["warning_thresholds.overvoltage_pct"]),
      undervoltage_pct: parseNumber(v["warning_thresholds.undervoltage_pct"]),
      overcurrent_pct: parseNumber(v["warning_thresholds.overcurrent_pct"]),
    },
    ...(withApplications ? { applications: form.applications } : {}),
  };
}

/** Field errors of a refused save, by the field's path. */
export function serverFieldErrors(body: ApiErrorBody | null): FieldErrors {
  return serverErrors(body, { field: (path) => path }).fields as FieldErrors;
}

/** True when the form differs from the stored settings. */
export function isDirty(form: SettingsForm, saved: SettingsForm): boolean {
  return JSON.stringify(form) !== JSON.stringify(saved);
}
