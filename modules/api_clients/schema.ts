/** Drizzle schema of the API clients module (PostgreSQL schema `api_clients`, migration 0019). */
import {
  bigserial,
  integer,
  pgSchema,
  primaryKey,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

export const apiClientsSchema = pgSchema("api_clients");

/** One API client of a customer; the secret is kept only as its SHA-256. */
export const clients = apiClientsSchema.table("clients", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  permission: text("permission").$type<"read" | "write">().notNull(),
  clientId: text("client_id").notNull().unique(),
  secretHash: text("secret_hash").notNull(),
  /** Incremented by every rotation; tokens carry it and older ones are refused. */
  secretVersion: integer("secret_version").notNull().default(1),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  rotatedAt: timestamp("rotated_at", { withTimezone: true }),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
});

/** Tokens issued per customer and calendar month (UTC, `YYYY-MM`): the monthly quota. */
export const tokenCounts = apiClientsSchema.table("token_counts", {
  customerKey: text("customer_key").notNull(),
  month: text("month").notNull(),
  issued: integer("issued").notNull(),
}, (t) => [primaryKey({ columns: [t.customerKey, t.month] })]);

/** Tokens issued per client and month (shown on /api-settings). */
export const clientTokenCounts = apiClientsSchema.table("client_token_counts", {
  clientId: text("client_id").notNull(),
  month: text("month").notNull(),
  issued: integer("issued").notNull(),
}, (t) => [primaryKey({ columns: [t.clientId, t.month] })]);

/** Every call of an API client on /external. */
export const auditLog = apiClientsSchema.table("audit_log", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  customerKey: text("customer_key").notNull(),
  clientId: text("client_id").notNull(),
  method: text("method").notNull(),
  route: text("route").notNull(),
  status: smallint("status").notNull(),
  durationMs: integer("duration_ms").notNull(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});
