/**
 * The customers contract (csm): what the server answers and accepts, shared with the web app
 * (types with `import type`). Pure: imports only zod and the module's pure rule file.
 */
import { z } from "zod";

export {
  type SettingsInput,
  settingsInput,
  type ThresholdsInput,
  thresholdsInput,
  type WarningThresholds,
  warningThresholds,
} from "./settings_rules.ts";

const thresholds = z.object({
  overvoltage_pct: z.number(),
  undervoltage_pct: z.number(),
  overcurrent_pct: z.number(),
}).meta({ id: "WarningThresholds" });

/** The customer as `GET /csm/customers` and `/csm/customers/{cid}` answer it. */
export const customerDto = z.object({
  key: z.string(),
  /** The value of the token's `app_metadata.customer`. */
  auth_connection_name: z.string(),
  name: z.string(),
  /** Unset until the customer's settings are completed (the super-role warning of spec 6). */
  default_language: z.string().nullable(),
  available_languages: z.array(z.string()),
  default_map_zoom_level: z.number().nullable(),
  /** A phase/line pair of spec 9 (`230/400`). */
  default_lv_nominal_voltage: z.string().nullable(),
  default_mv_nominal_voltage: z.number().nullable(),
  default_frequency: z.number(),
  default_timezone: z.string(),
  default_date_format: z.string(),
  default_time_format: z.string(),
  default_number_format: z.string(),
  country: z.string(),
  map_center: z.object({ lat: z.number(), lng: z.number() }),
  /** An online basemap under the grid maps (absent or null: the bundled offline basemap). */
  map_tiles: z.object({ url: z.string(), attribution: z.string() }).nullable().optional(),
  applications: z.array(z.string()),
  authorized_email_domains: z.array(z.string()),
  /** ETag of the logo (`GET /csm/customers/{cid}/logo`); null when none is set. */
  logo_etag: z.string().nullable(),
  /** Warning thresholds in percent of nominal (spec 2.8). */
  warning_thresholds: thresholds,
}).meta({ id: "CustomerDto" });
export type CustomerDto = z.output<typeof customerDto>;

/** A stored logo's facts. */
export const logoInfoDto = z.object({
  content_type: z.string(),
  width: z.number(),
  height: z.number(),
  size: z.number(),
}).meta({ id: "LogoInfoDto" });
export type LogoInfoDto = z.output<typeof logoInfoDto>;

/** The global settings as GET and PUT answer them: the customer plus the settings-only fields. */
export const customerSettingsDto = customerDto.extend({
  street: z.string().nullable(),
  postcode: z.string().nullable(),
  city: z.string().nullable(),
  technical_contact: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  logo: logoInfoDto.nullable(),
  updated_at: z.string().nullable(),
}).meta({ id: "CustomerSettingsDto" });
export type CustomerSettingsDto = z.output<typeof customerSettingsDto>;

/** The grid monitoring settings (spec 2.1 /grid-monitoring-settings). */
export const gridMonitoringSettingsDto = z.object({
  warning_thresholds: thresholds,
  default_lv_nominal_voltage: z.string().nullable(),
  default_mv_nominal_voltage: z.number().nullable(),
}).meta({ id: "GridMonitoringSettingsDto" });
export type GridMonitoringSettingsDto = z.output<typeof gridMonitoringSettingsDto>;
