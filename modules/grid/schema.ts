/** Drizzle schema of the grid module (PostgreSQL schema `grid`). */
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgSchema,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import {
  CELL_CATEGORIES,
  DEVICE_MODELS,
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  FEEDER_DIRECTIONS,
  FEEDER_TYPES,
  type FeederType,
  IO_MODULE_TYPES,
  type IoModuleType,
  MAP_LAYER_FORMATS,
  MAPPED_PHASES,
  type MappedPhase,
} from "./contract.ts";

export const gridSchema = pgSchema("grid");

export const stationGroups = gridSchema.table("station_groups", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const mvFeederGroups = gridSchema.table("mv_feeder_groups", {
  id: text("id").primaryKey(),
  stationGroupId: text("station_group_id").notNull(),
  name: text("name").notNull(),
});

export const lvGroups = gridSchema.table("lv_groups", {
  id: text("id").primaryKey(),
  mvFeederGroupId: text("mv_feeder_group_id").notNull(),
  name: text("name").notNull(),
});

export {
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  FEEDER_TYPES,
  type FeederType,
  IO_MODULE_TYPES,
  type IoModuleType,
  MAPPED_PHASES,
  type MappedPhase,
};

export const nodes = gridSchema.table("nodes", {
  id: text("id").primaryKey(),
  lvGroupId: text("lv_group_id").notNull(),
  name: text("name").notNull(),
  electricalWorkKey: text("electrical_work_key").notNull(),
  electricalWorkName: text("electrical_work_name").notNull(),
  electricalWorkType: text("electrical_work_type", { enum: ELECTRICAL_WORK_TYPES }).notNull(),
  latitude: doublePrecision("latitude").notNull(),
  longitude: doublePrecision("longitude").notNull(),
  electricalDistance: doublePrecision("electrical_distance").notNull(),
  upstreamNodeId: text("upstream_node_id"),
});

export const feeders = gridSchema.table("feeders", {
  id: text("id").primaryKey(),
  nodeId: text("node_id").notNull(),
  slot: smallint("slot").notNull(),
  name: text("name").notNull(),
  type: text("type", { enum: FEEDER_TYPES }).notNull(),
  direction: text("direction", { enum: FEEDER_DIRECTIONS }).notNull(),
  nominalCurrentA: doublePrecision("nominal_current_a").notNull(),
  parameters: jsonb("parameters").$type<Record<string, unknown>>().notNull(),
});

export const cells = gridSchema.table("cells", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  serialNumber: text("serial_number").notNull(),
  type: text("type", { enum: CELL_CATEGORIES }).notNull(),
  status: text("status").notNull(),
  nodeId: text("node_id"),
  provisioningDate: timestamp("provisioning_date", { withTimezone: true }).notNull().defaultNow(),
  credentialHash: text("credential_hash"),
  credentialIssuedAt: timestamp("credential_issued_at", { withTimezone: true }),
  revoked: boolean("revoked").notNull(),
  mapping: jsonb("mapping").$type<Record<string, unknown>>().notNull(),
  gpsFix: text("gps_fix"),
  gsmSignal: text("gsm_signal"),
  firmware: text("firmware"),
  lastSeen: timestamp("last_seen", { withTimezone: true }),
  customMessage: text("custom_message"),
  // Migration 0008 (cells setup).
  deviceModel: text("device_model", { enum: DEVICE_MODELS }).notNull().default("GW4"),
  mappingVersion: integer("mapping_version").notNull().default(0),
  mappingAckedVersion: integer("mapping_acked_version").notNull().default(0),
  mappingAckedAt: timestamp("mapping_acked_at", { withTimezone: true }),
  validation: jsonb("validation").$type<Record<string, unknown>>(),
});

/** Map layers uploaded by a customer (.kml converted to GeoJSON on upload). */
export const mapLayers = gridSchema.table("map_layers", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  fileName: text("file_name").notNull(),
  format: text("format", { enum: MAP_LAYER_FORMATS }).notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  featureCount: integer("feature_count").notNull(),
  geojson: jsonb("geojson").$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The ordered MV feeders (sections) of the MV topology of an MV feeder group. */
export const mvTopologySections = gridSchema.table("mv_topology_sections", {
  mvFeederGroupId: text("mv_feeder_group_id").notNull(),
  position: smallint("position").notNull(),
  feederId: text("feeder_id").notNull(),
});

// Cells setup (migration 0008): device model, line mapping and its delivery, I/O modules.

export const cellMappings = gridSchema.table("cell_mappings", {
  cellId: text("cell_id").notNull(),
  feederId: text("feeder_id").notNull(),
  phase: text("phase", { enum: MAPPED_PHASES }).notNull(),
  probe: smallint("probe").notNull(),
});

export const ioModules = gridSchema.table("io_modules", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  moduleType: text("module_type", { enum: IO_MODULE_TYPES }).notNull(),
  systemType: text("system_type").notNull(),
  size: smallint("size").notNull(),
  resolution: doublePrecision("resolution").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** An analog input's measuring range: the signal maps onto [rangeMin, rangeMax] rangeUnit. */
  rangeMin: doublePrecision("range_min"),
  rangeMax: doublePrecision("range_max"),
  rangeUnit: text("range_unit"),
});

export const cellIoModules = gridSchema.table("cell_io_modules", {
  cellId: text("cell_id").notNull(),
  moduleId: text("module_id").notNull(),
  slot: smallint("slot").notNull(),
  active: boolean("active").notNull(),
});

/**
 * Counters bumped by triggers (migration 0027) when the structure or a cell's placement or
 * credential changes: one row to compare instead of scanning the tables.
 */
export const changeCounters = gridSchema.table("change_counters", {
  name: text("name").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull(),
});
