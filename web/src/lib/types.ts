/** Shapes shared with the server (docs/contracts.md). */

/** User roles of spec 6, lowest first. */
export type Role = "user" | "admin" | "super-user" | "super-admin";

/** A customer as returned by `GET /csm/customers`. */
export interface Customer {
  key: string;
  auth_connection_name: string;
  name: string;
  default_language: string;
  available_languages: string[];
  default_map_zoom_level: number | null;
  default_lv_nominal_voltage: string | null;
  default_mv_nominal_voltage: number | null;
  default_frequency: 50 | 60;
  default_timezone: string;
  default_date_format: string;
  default_time_format: string;
  default_number_format: string;
  country: string;
  map_center: { lat: number; lng: number };
  applications: string[];
  authorized_email_domains: string[];
  /** Warning thresholds in percent of nominal (Global Settings). */
  warning_thresholds?: {
    overvoltage_pct: number;
    undervoltage_pct: number;
    overcurrent_pct: number;
  };
  /** ETag of the customer's logo; null or absent when none is set. */
  logo_etag?: string | null;
}

/** The current user as returned by `GET /usm/users/current/{id}`. */
export interface CurrentUser {
  user_id: string;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  start_page: string | null;
  language: string;
  apps_roles: string[];
  customer_key: string;
  user_metadata: Record<string, unknown>;
  app_metadata: Record<string, unknown>;
  latest_login: string | null;
  /** The e-mail was confirmed through a validation link (needed for e-mail notifications). */
  email_validated?: boolean;
}

/** The JSON body of every API error. */
export interface ApiErrorBody {
  code?: number;
  key: string;
  params: Record<string, unknown>;
}
