/** Drizzle schema of the SCADA connector (PostgreSQL schema `scada`, migrations 0020, 0025). */
import {
  boolean,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

export const scadaSchema = pgSchema("scada");

/** One SCADA master's profile. */
export const profiles = scadaSchema.table("profiles", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  ipAddress: text("ip_address").notNull(),
  port: integer("port").notNull(),
  asdu: integer("asdu").notNull(),
  activated: boolean("activated").notNull().default(false),
  t0: integer("t0").notNull(),
  t1: integer("t1").notNull(),
  t2: integer("t2").notNull(),
  t3: integer("t3").notNull(),
  k: integer("k").notNull(),
  w: integer("w").notNull(),
  /** Per float quantity, its deadband in the quantity's unit (migration 0025). */
  deadbands: jsonb("deadbands").$type<Partial<Record<string, number>>>().notNull().default({}),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A profile's points; `position` is the feeder order the user set. */
export const points = scadaSchema.table("points", {
  profileId: text("profile_id").notNull(),
  position: integer("position").notNull(),
  ioa: integer("ioa").notNull(),
  nodeId: text("node_id").notNull(),
  feederId: text("feeder_id"),
  quantity: text("quantity").notNull(),
  phase: smallint("phase"),
  activated: boolean("activated").notNull().default(true),
}, (t) => [primaryKey({ columns: [t.profileId, t.position] })]);
