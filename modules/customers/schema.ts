/** Drizzle schema of the customers module (PostgreSQL schema `customers`). */
import {
  customType,
  doublePrecision,
  integer,
  numeric,
  pgSchema,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

export const customersSchema = pgSchema("customers");

export const customers = customersSchema.table("customers", {
  key: text("key").primaryKey(),
  authConnectionName: text("auth_connection_name").notNull().unique(),
  name: text("name").notNull(),
  defaultLanguage: text("default_language"),
  availableLanguages: text("available_languages").array().notNull(),
  defaultMapZoomLevel: integer("default_map_zoom_level"),
  defaultLvNominalVoltage: text("default_lv_nominal_voltage"),
  defaultMvNominalVoltage: numeric("default_mv_nominal_voltage", {
    mode: "number",
    precision: 8,
    scale: 2,
  }),
  defaultFrequency: integer("default_frequency").notNull(),
  defaultTimezone: text("default_timezone").notNull(),
  defaultDateFormat: text("default_date_format").notNull(),
  defaultTimeFormat: text("default_time_format").notNull(),
  defaultNumberFormat: text("default_number_format").notNull(),
  country: text("country").notNull(),
  mapCenterLat: doublePrecision("map_center_lat").notNull(),
  mapCenterLng: doublePrecision("map_center_lng").notNull(),
  applications: text("applications").array().notNull(),
  authorizedEmailDomains: text("authorized_email_domains").array().notNull(),
  overvoltageThresholdPct: numeric("overvoltage_threshold_pct", {
    mode: "number",
    precision: 5,
    scale: 2,
  }).notNull()
    .default(10),
  undervoltageThresholdPct: numeric("undervoltage_threshold_pct", {
    mode: "number",
    precision: 5,
    scale: 2,
  }).notNull()
    .default(10),
  overcurrentThresholdPct: numeric("overcurrent_threshold_pct", {
    mode: "number",
    precision: 6,
    scale: 2,
  }).notNull()
    .default(100),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  street: text("street"),
  postcode: text("postcode"),
  city: text("city"),
  technicalContactName: text("technical_contact_name"),
  technicalContactEmail: text("technical_contact_email"),
  technicalContactPhone: text("technical_contact_phone"),
  logoEtag: text("logo_etag"),
  settingsUpdatedAt: timestamp("settings_updated_at", { withTimezone: true }),
  settingsUpdatedBy: text("settings_updated_by"),
  /** An online basemap (migration 0021); NULL: the offline basemap. */
  mapTileUrl: text("map_tile_url"),
  mapTileAttribution: text("map_tile_attribution"),
});

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** The customer's logo (migration 0010). */
export const logos = customersSchema.table("logos", {
  customerKey: text("customer_key").primaryKey().references(() => customers.key, {
    onDelete: "cascade",
  }),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  byteSize: integer("byte_size").notNull(),
  etag: text("etag").notNull(),
  data: bytea("data").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;
