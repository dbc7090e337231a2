/** The customer's mapping from a row to its API shape (contract.ts). */
import type { CustomerDto } from "./contract.ts";
import type { CustomerRow } from "./schema.ts";

export type { CustomerDto };

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
    map_tiles: row.mapTileUrl
      ? { url: row.mapTileUrl, attribution: row.mapTileAttribution ?? "" }
      : null,
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
