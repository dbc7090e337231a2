/** Customer reads with tenant isolation: a foreign customer looks exactly like a missing one. */
import { asc, eq } from "drizzle-orm";
import { AppError, type Db, isSuperRole, type Principal } from "../kernel/mod.ts";
import { type CustomerRow, customers, type NewCustomerRow } from "./schema.ts";

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
    warning_thresholds: {
      overvoltage_pct: row.overvoltageThresholdPct,
      undervoltage_pct: row.undervoltageThresholdPct,
      overcurrent_pct: row.overcurrentThresholdPct,
    },
  };
}

/** Reads and creates customers. */
export class CustomersService {
  constructor(private readonly db: Db) {}

  /** Customers the principal may see: its own, or all of them for super roles. */
  async listFor(principal: Principal): Promise<CustomerDto[]> {
    const query = this.db.select().from(customers).orderBy(asc(customers.name));
    const rows = isSuperRole(principal.role)
      ? await query
      : await query.where(eq(customers.authConnectionName, principal.customer));
    return rows.map(toDto);
  }

  /** One customer the principal may see; 404 for a foreign, unknown or malformed id. */
  async getFor(principal: Principal, key: string): Promise<CustomerDto> {
    const row = await this.byKey(key);
    if (!row || (!isSuperRole(principal.role) && row.authConnectionName !== principal.customer)) {
      throw new AppError("common.notFound");
    }
    return toDto(row);
  }

  /** The customer of an auth connection (the identity provider's login check). */
  async getByConnection(authConnectionName: string): Promise<CustomerDto | null> {
    const [row] = await this.db.select().from(customers)
      .where(eq(customers.authConnectionName, authConnectionName));
    return row ? toDto(row) : null;
  }

  /** The customer of a key, without an access check (for other modules' internal use). */
  async getByKey(key: string): Promise<CustomerDto | null> {
    const row = await this.byKey(key);
    return row ? toDto(row) : null;
  }

  /** Creates a customer; used by the demo seed and by tests. */
  async create(values: NewCustomerRow): Promise<CustomerDto> {
    const [row] = await this.db.insert(customers).values(values).returning();
    return toDto(row!);
  }

  /** Keys of every customer (background evaluations run per customer). */
  async allKeys(): Promise<string[]> {
    return (await this.db.select({ key: customers.key }).from(customers)).map((r) => r.key);
  }

  async count(): Promise<number> {
    return (await this.db.select({ key: customers.key }).from(customers)).length;
  }

  private async byKey(key: string): Promise<CustomerRow | undefined> {
    if (!/^[\w-]{1,64}$/.test(key)) return undefined;
    const [row] = await this.db.select().from(customers).where(eq(customers.key, key));
    return row;
  }
}
