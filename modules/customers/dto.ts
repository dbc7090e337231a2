/** The customer as the API shows it, and its mapping from a row. */
import type { CustomerRow } from "./schema.ts";

/** The customer as the API shows it (spec 3 fields plus settings the shell needs). */
export interface CustomerDto {
  key: string;
  auth_connection_name: string;
  name: string;
  default_language: string | null;
  available_languages: string[];
  default_map_zoom_level: number | null;
  default_lv_nominal_voltage: string | null;
  default_mv_nominal_voltage: number | null;
  default_frequency: number;
  default_timezone: string;
  default_date_format: string;
  default_time_format: string;
  default_number_format: string;
  country: string;
  map_center: { lat: number; lng: number };
  applications: string[];
  authorized_email_domains: string[];
  /** ETag of the logo (GET /csm/customers/{cid}/logo); null when none is set. Always sent. */
  logo_etag?: string | null;
  /** Warning thresholds in percent of nominal (spec 2.8). */
  warning_thresholds: {
    overvoltage_pct: number;
    undervoltage_pct: number;
    overcurrent_pct: number;
  };
}

/** Maps a row to its API shape. */
export function toDto(row: CustomerRow): CustomerDto {
  return {
    key: row.key,
    auth_connection_name: row.authConnectionName,
    name: row.name,
    default_language: row.defaultLanguage,
    available_languages: row.availableLanguages,
    default_map_zoom_level: row.defaultMapZoomLevel,
    default_lv_nominal_voltage: row.defaultLvNominalVoltage,
    default_mv_nominal_voltage: row.defaultMvNominalVoltage,
    default_frequency: row.defaultFrequency,
    default_timezone: row.defaultTimezone,
    default_date_format: row.defaultDateFormat,
    default_time_format: row.defaultTimeFormat,
    default_number_format: row.defaultNumberFormat,
    country: row.country,
    map_center: { lat: row.mapCenterLat, lng: row.mapCenterLng },
    applications: row.applications,
    authorized_email_domains: row.authorizedEmailDomains,
    logo_etag: row.logoEtag,
    warning_thresholds: {
      overvoltage_pct: row.overvoltageThresholdPct,
      undervoltage_pct: row.undervoltageThresholdPct,
      overcurrent_pct: row.overcurrentThresholdPct,
    },
  };
}
