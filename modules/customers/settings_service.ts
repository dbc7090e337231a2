/**
 * Global settings of a customer (spec 2.8, 3): read and write with the rules of
 * settings_rules.ts, the grid monitoring thresholds, and the logo. Routes check the admin role;
 * this service checks the customer: own customer, or any customer for super roles (writes
 * across customers: super-admin only). Foreign customers answer the same 404 as missing ones.
 */
import { eq } from "drizzle-orm";
import { AppError, type Db, isSuperRole, type Principal } from "../../kernel/mod.ts";
import type {
  CustomerSettingsDto,
  GridMonitoringSettingsDto,
  LogoInfoDto,
  SettingsInput,
  ThresholdsInput,
} from "./contract.ts";
import { toDto } from "./dto.ts";
import { inspectImage, MAX_LOGO_BYTES, MAX_LOGO_SIDE } from "./logo_image.ts";
import { type CustomerRow, customers, logos } from "./schema.ts";
import { tileUrlFor } from "./settings_rules.ts";

export type { CustomerSettingsDto, GridMonitoringSettingsDto };

/** A stored logo, ready to be served. */
export interface LogoFile {
  contentType: string;
  etag: string;
  data: Uint8Array;
}

async function etagOf(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));
  return [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads and writes the global settings of customers. */
export class CustomerSettingsService {
  constructor(
    private readonly db: Db,
    /** Told after every write (the tenant cache forgets the customers). */
    private readonly changed: () => void = () => {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The settings of a customer the principal may see. */
  async get(principal: Principal, key: string): Promise<CustomerSettingsDto> {
    return await this.#dto(await this.#row(principal, key, "read"));
  }

  /** Replaces the settings (checked by the route with `settingsInput`). */
  async update(principal: Principal, key: string, v: SettingsInput): Promise<CustomerSettingsDto> {
    const row = await this.#row(principal, key, "write");
    const apps = v.applications;
    const appsChanged = apps !== undefined &&
      [...apps].sort().join() !== [...row.applications].sort().join();
    if (appsChanged && principal.role !== "super-admin") {
      throw new AppError("settings.applicationsSuperAdminOnly");
    }
    const [updated] = await this.db.update(customers).set({
      name: v.name,
      street: v.street,
      postcode: v.postcode,
      city: v.city,
      country: v.country,
      technicalContactName: v.technical_contact.name,
      technicalContactEmail: v.technical_contact.email,
      technicalContactPhone: v.technical_contact.phone,
      defaultDateFormat: v.default_date_format,
      defaultTimeFormat: v.default_time_format,
      defaultNumberFormat: v.default_number_format,
      defaultTimezone: v.default_timezone,
      defaultLanguage: v.default_language,
      availableLanguages: v.available_languages,
      authorizedEmailDomains: v.authorized_email_domains,
      defaultFrequency: v.default_frequency,
      defaultLvNominalVoltage: v.default_lv_nominal_voltage,
      defaultMvNominalVoltage: v.default_mv_nominal_voltage,
      mapCenterLat: v.map_center.lat,
      mapCenterLng: v.map_center.lng,
      defaultMapZoomLevel: v.default_map_zoom_level,
      overvoltageThresholdPct: v.warning_thresholds.overvoltage_pct,
      undervoltageThresholdPct: v.warning_thresholds.undervoltage_pct,
      overcurrentThresholdPct: v.warning_thresholds.overcurrent_pct,
      ...(apps ? { applications: apps } : {}),
      ...(v.map_tiles !== undefined
        ? {
          mapTileUrl: v.map_tiles?.url ?? null,
          mapTileAttribution: v.map_tiles?.attribution ?? null,
        }
        : {}),
      settingsUpdatedAt: this.now(),
      settingsUpdatedBy: principal.userId,
    }).where(eq(customers.key, row.key)).returning();
    this.changed();
    return await this.#dto(updated!);
  }

  /** The warning thresholds and the nominal voltages they apply to. */
  async gridMonitoring(principal: Principal, key: string): Promise<GridMonitoringSettingsDto> {
    return gridMonitoringDto(await this.#row(principal, key, "read"));
  }

  /** Replaces the warning thresholds (grid monitoring admins). */
  async updateGridMonitoring(
    principal: Principal,
    key: string,
    input: ThresholdsInput,
  ): Promise<GridMonitoringSettingsDto> {
    const row = await this.#row(principal, key, "write");
    const value = input.warning_thresholds;
    const [updated] = await this.db.update(customers).set({
      overvoltageThresholdPct: value.overvoltage_pct,
      undervoltageThresholdPct: value.undervoltage_pct,
      overcurrentThresholdPct: value.overcurrent_pct,
      settingsUpdatedAt: this.now(),
      settingsUpdatedBy: principal.userId,
    }).where(eq(customers.key, row.key)).returning();
    return gridMonitoringDto(updated!);
  }

  /** Stores a logo after checking its size and content. */
  async putLogo(principal: Principal, key: string, data: Uint8Array): Promise<LogoInfoDto> {
    const row = await this.#row(principal, key, "write");
    if (data.byteLength > MAX_LOGO_BYTES) throw new AppError("settings.logoTooLarge");
    const image = inspectImage(data);
    if (!image) throw new AppError("settings.logoNotImage");
    if (image.width > MAX_LOGO_SIDE || image.height > MAX_LOGO_SIDE) {
      throw new AppError("settings.logoDimensions", { max: MAX_LOGO_SIDE });
    }
    const etag = await etagOf(data);
    const values = {
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      byteSize: data.byteLength,
      etag,
      data,
      updatedAt: this.now(),
    };
    await this.db.transaction(async (tx) => {
      await tx.insert(logos).values({ customerKey: row.key, ...values })
        .onConflictDoUpdate({ target: logos.customerKey, set: values });
      await tx.update(customers).set({ logoEtag: etag }).where(eq(customers.key, row.key));
    });
    return {
      content_type: image.contentType,
      width: image.width,
      height: image.height,
      size: data.byteLength,
    };
  }

  /** The logo of a customer the principal may see; 404 when none is set. */
  async logo(principal: Principal, key: string): Promise<LogoFile> {
    const row = await this.#row(principal, key, "read");
    const [logo] = await this.db.select().from(logos).where(eq(logos.customerKey, row.key));
    if (!logo) throw new AppError("common.notFound");
    return { contentType: logo.contentType, etag: logo.etag, data: logo.data };
  }

  /**
   * The URL of one tile of the customer's online basemap (any user of the customer reads it);
   * 404 when none is set or the tile is outside the pyramid.
   */
  async tileUrl(principal: Principal, key: string, z: number, x: number, y: number) {
    const row = await this.#row(principal, key, "read");
    const url = row.mapTileUrl ? tileUrlFor(row.mapTileUrl, z, x, y) : null;
    if (!url) throw new AppError("common.notFound");
    return url;
  }

  /** Removes the logo (idempotent). */
  async deleteLogo(principal: Principal, key: string): Promise<void> {
    const row = await this.#row(principal, key, "write");
    await this.db.transaction(async (tx) => {
      await tx.delete(logos).where(eq(logos.customerKey, row.key));
      await tx.update(customers).set({ logoEtag: null }).where(eq(customers.key, row.key));
    });
  }

  async #row(principal: Principal, key: string, mode: "read" | "write"): Promise<CustomerRow> {
    const row = /^[\w-]{1,64}$/.test(key)
      ? (await this.db.select().from(customers).where(eq(customers.key, key)))[0]
      : undefined;
    const own = row?.authConnectionName === principal.customer;
    const across = mode === "read" ? isSuperRole(principal.role) : principal.role === "super-admin";
    if (!row || (!own && !across)) throw new AppError("common.notFound");
    return row;
  }

  async #dto(row: CustomerRow): Promise<CustomerSettingsDto> {
    const [logo] = row.logoEtag
      ? await this.db.select({
        contentType: logos.contentType,
        width: logos.width,
        height: logos.height,
        size: logos.byteSize,
      }).from(logos).where(eq(logos.customerKey, row.key))
      : [];
    return {
      ...toDto(row),
      street: row.street,
      postcode: row.postcode,
      city: row.city,
      technical_contact: {
        name: row.technicalContactName,
        email: row.technicalContactEmail,
        phone: row.technicalContactPhone,
      },
      logo: logo
        ? {
          content_type: logo.contentType,
          width: logo.width,
          height: logo.height,
          size: logo.size,
        }
        : null,
      updated_at: row.settingsUpdatedAt?.toISOString() ?? null,
    };
  }
}

function gridMonitoringDto(row: CustomerRow): GridMonitoringSettingsDto {
  const dto = toDto(row);
  return {
    warning_thresholds: dto.warning_thresholds,
    default_lv_nominal_voltage: dto.default_lv_nominal_voltage,
    default_mv_nominal_voltage: dto.default_mv_nominal_voltage,
  };
}
