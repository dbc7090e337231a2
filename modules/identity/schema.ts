/** Drizzle schema of the identity module (PostgreSQL schema `identity`). */
import { jsonb, pgSchema, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const identitySchema = pgSchema("identity");

export const oidcPayloads = identitySchema.table("oidc_payloads", {
  model: text("model").notNull(),
  id: text("id").notNull(),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  grantId: text("grant_id"),
  userCode: text("user_code"),
  uid: text("uid"),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.model, t.id] })]);

export const secrets = identitySchema.table("secrets", {
  name: text("name").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
