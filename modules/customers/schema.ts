/** Drizzle schema of the customers module (PostgreSQL schema `customers`). */
import { doublePrecision, integer, numeric, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const customersSchema = pgSchema("customers");

export const customers = customersSchema.table("customers", {
  key: text("key").primaryKey(),
  authConnectionName: text("auth_connection_name").notNull().unique(),
  name: text("name").notNull(),
  defaultLanguage: text("default_language"),
  availableLanguages: text("available_languages").array().notNull(),
  defaultMapZoomLevel: integer("default_map_zoom_level"),
  defaultLvNominalVoltage: text("default_lv_nominal_voltage"),
  defaultMvNominalVoltage: numeric("default_mv_nominal_voltage", { mode: "number" }),
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
  overvoltageThresholdPct: numeric("overvoltage_threshold_pct", { mode: "number" }).notNull()
    .default(10),
  undervoltageThresholdPct: numeric("undervoltage_threshold_pct", { mode: "number" }).notNull()
    .default(10),
  overcurrentThresholdPct: numeric("overcurrent_threshold_pct", { mode: "number" }).notNull()
    .default(100),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;
