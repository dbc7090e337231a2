/** Row mapping and password storage shared by the users services (internal to the module). */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { AppError, type Db, hashPassword, verifyPassword } from "../../kernel/mod.ts";
import type { CurrentUserDto, ManagedUserDto } from "./contract.ts";
import { checkPassword } from "./password_policy.ts";
import { passwordHistory, type UserRow, users } from "./schema.ts";

/** How many earlier passwords may not be reused (code 602); the current one included. */
export const PASSWORD_HISTORY_SIZE = 5;

export type { CurrentUserDto, ManagedUserDto };

/** What the identity provider needs to log a user in and build the token claims. */
export interface LoginUser extends CurrentUserDto {
  password_hash: string;
  disabled: boolean;
}

/** Maps a row to the login view (with the password hash). */
export function toLoginUser(row: UserRow): LoginUser {
  return { ...toCurrentUser(row), password_hash: row.passwordHash, disabled: row.disabled };
}

/** The profile without management fields and secrets. */
export function toCurrentUser(row: UserRow): CurrentUserDto {
  return {
    user_id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    start_page: row.startPage,
    language: row.language,
    apps_roles: row.appsRoles,
    customer_key: row.customerKey,
    user_metadata: row.userMetadata,
    app_metadata: row.appMetadata,
    latest_login: row.latestLogin?.toISOString() ?? null,
    email_validated: row.userMetadata.email_validated === true,
    kiosk: row.appMetadata.kiosk === true,
  };
}

/** The managed view: the profile with its state, without secrets. */
export function toManagedUser(row: UserRow): ManagedUserDto {
  return { ...toCurrentUser(row), disabled: row.disabled, created_at: row.createdAt.toISOString() };
}

/** True for the ids this module issues; anything else is answered like a missing user. */
export function isUserId(id: string): boolean {
  return /^[\w-]{1,64}$/.test(id);
}

/** One user row by id, or `null`. */
export async function findRow(db: Db, id: string): Promise<UserRow | null> {
  if (!isUserId(id)) return null;
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** The user with this e-mail (case-insensitive), or `null`. */
export async function findRowByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row ?? null;
}

/** 609 when another user already has this e-mail. */
export async function assertEmailFree(db: Db, email: string, exceptId?: string): Promise<void> {
  const other = await findRowByEmail(db, email);
  if (other && other.id !== exceptId) throw new AppError(609);
}

/** True for PostgreSQL's unique violation (a concurrent insert of the same e-mail). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/**
 * Checks a new password: confirmation, the policy (611, 603, 604, 601) and, for an existing
 * user, reuse of the current or one of the earlier passwords (602). Returns the new hash.
 */
export async function acceptNewPassword(
  db: Db,
  input: { password: string; confirmation?: string | undefined },
  owner: { name: string; email: string; userId?: string },
): Promise<string> {
  if (input.confirmation !== undefined && input.confirmation !== input.password) {
    throw new AppError("users.passwordMismatch");
  }
  const { code } = checkPassword(input.password, owner);
  if (code !== null) throw new AppError(code);
  if (owner.userId) {
    const current = await findRow(db, owner.userId);
    const earlier = await db.select({ hash: passwordHistory.passwordHash }).from(passwordHistory)
      .where(eq(passwordHistory.userId, owner.userId))
      .orderBy(desc(passwordHistory.createdAt)).limit(PASSWORD_HISTORY_SIZE);
    const hashes = [...new Set([current?.passwordHash, ...earlier.map((r) => r.hash)])]
      .filter((h): h is string => Boolean(h)).slice(0, PASSWORD_HISTORY_SIZE);
    for (const hash of hashes) {
      if (await verifyPassword(input.password, hash)) throw new AppError(602);
    }
  }
  return await hashPassword(input.password);
}

/** Records a password in the history and keeps only the newest entries. */
export async function rememberPassword(db: Db, userId: string, hash: string): Promise<void> {
  await db.insert(passwordHistory).values({ userId, passwordHash: hash, createdAt: new Date() });
  const keep = await db.select({ createdAt: passwordHistory.createdAt }).from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt)).limit(PASSWORD_HISTORY_SIZE);
  const oldest = keep.at(-1);
  if (keep.length < PASSWORD_HISTORY_SIZE || !oldest) return;
  await db.delete(passwordHistory).where(
    and(eq(passwordHistory.userId, userId), lt(passwordHistory.createdAt, oldest.createdAt)),
  );
}

/** user_metadata after an e-mail change: not validated, no e-mail notifications. */
export function withoutEmailValidation(metadata: Record<string, unknown>): Record<string, unknown> {
  const notification = (metadata.notification ?? {}) as {
    apps?: Record<string, unknown>;
    email?: boolean;
  };
  const apps = Object.fromEntries(
    Object.entries(notification.apps ?? {}).map(([key, value]) => [
      key,
      typeof value === "object" && value !== null ? { ...value, email: false } : value,
    ]),
  );
  return {
    ...metadata,
    email_validated: false,
    notification: { ...notification, apps, email: false },
  };
}
