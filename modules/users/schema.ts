/** Drizzle schema of the users module (PostgreSQL schema `users`). */
import { boolean, jsonb, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const usersSchema = pgSchema("users");

export const users = usersSchema.table("users", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  email: text("email").notNull(),
  name: text("name").notNull(),
  phone: text("phone"),
  role: text("role", { enum: ["user", "admin", "super-user", "super-admin"] }).notNull(),
  startPage: text("start_page"),
  language: text("language").notNull(),
  appsRoles: text("apps_roles").array().notNull(),
  passwordHash: text("password_hash").notNull(),
  userMetadata: jsonb("user_metadata").$type<Record<string, unknown>>().notNull(),
  appMetadata: jsonb("app_metadata").$type<Record<string, unknown>>().notNull(),
  latestLogin: timestamp("latest_login", { withTimezone: true }),
  disabled: boolean("disabled").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;

/** Earlier password hashes of a user (the current one included), for the reuse rule (602). */
export const passwordHistory = usersSchema.table("password_history", {
  userId: text("user_id").notNull(),
  passwordHash: text("password_hash").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use e-mail validation links; only the token's SHA-256 is stored. */
export const emailValidationTokens = usersSchema.table("email_validation_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: text("user_id").notNull(),
  email: text("email").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The last change of a user's access, kept while tokens issued before it may still be valid
 * (no foreign key: a deleted user's row stays). Read into the revocation registry at start.
 */
export const accessChanges = usersSchema.table("access_changes", {
  userId: text("user_id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  revokedBefore: timestamp("revoked_before", { withTimezone: true }),
  rightsChangedAt: timestamp("rights_changed_at", { withTimezone: true }),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
});
