/**
 * Persistence of access changes (`users.access_changes`), so that a restart does not bring
 * revoked tokens back, and the description of a change as the `users.accessChanged` event.
 */
import { eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";
import type { AccessRegistry } from "./access_registry.ts";
import type { UserAccessChanged } from "./events.ts";
import { roleRank } from "./rules.ts";
import { accessChanges, type UserRow, users } from "./schema.ts";

/** The rights and state of a user before or after a change. */
type AccessFacts = Pick<UserRow, "role" | "appsRoles" | "disabled"> & {
  appMetadata?: UserRow["appMetadata"];
};

/**
 * The event for a change of `before` into `after` (`null`: deleted), or `null` when nothing
 * about the user's access changed.
 */
export function describeAccessChange(
  before: UserRow,
  after: AccessFacts | null,
  opts: { at: Date; passwordReset?: boolean },
): UserAccessChanged | null {
  const now = after ?? before;
  const rightsChanged = after !== null && (
    after.role !== before.role ||
    after.appsRoles.length !== before.appsRoles.length ||
    after.appsRoles.some((entry) => !before.appsRoles.includes(entry))
  );
  const narrowed = rightsChanged && (
    roleRank(after.role) < roleRank(before.role) ||
    before.appsRoles.some((entry) => !after.appsRoles.includes(entry))
  );
  const passwordReset = opts.passwordReset === true;
  const newlyDisabled = after !== null && after.disabled && !before.disabled;
  // A kiosk's long sign-in ends with its kiosk choice.
  const kioskEnded = after?.appMetadata !== undefined && before.appMetadata.kiosk === true &&
    after.appMetadata.kiosk !== true;
  const revoked = after === null || newlyDisabled || passwordReset || kioskEnded;
  const enabled = after !== null && !after.disabled && before.disabled;
  if (!revoked && !rightsChanged && !enabled) return null;
  return {
    userId: before.id,
    customerKey: before.customerKey,
    email: before.email,
    at: opts.at.toISOString(),
    state: after === null ? "deleted" : after.disabled ? "disabled" : "active",
    role: now.role,
    appsRoles: [...now.appsRoles],
    revoked,
    rightsChanged,
    narrowed,
    passwordReset,
  };
}

/** Stores a change in the caller's transaction (the user's own update commits with it). */
export async function saveAccessChange(db: Db, change: UserAccessChanged): Promise<void> {
  const at = new Date(change.at);
  const revokedBefore = change.revoked ? at : null;
  const rightsChangedAt = change.rightsChanged ? at : null;
  await db.insert(accessChanges).values({
    userId: change.userId,
    customerKey: change.customerKey,
    revokedBefore,
    rightsChangedAt,
    changedAt: at,
  }).onConflictDoUpdate({
    target: accessChanges.userId,
    set: {
      revokedBefore: sql`greatest(${accessChanges.revokedBefore}, excluded.revoked_before)`,
      rightsChangedAt: sql`greatest(${accessChanges.rightsChangedAt}, excluded.rights_changed_at)`,
      changedAt: sql`greatest(${accessChanges.changedAt}, excluded.changed_at)`,
    },
  });
}

/**
 * Fills the registry with the changes of the last `horizonMs` (a user without a row is
 * deleted) and deletes older rows.
 */
export async function loadAccessChanges(
  db: Db,
  registry: AccessRegistry,
  horizonMs: number,
  now: Date = new Date(),
): Promise<number> {
  const since = new Date(now.getTime() - horizonMs);
  await db.delete(accessChanges).where(lt(accessChanges.changedAt, since));
  const rows = await db.select({
    userId: accessChanges.userId,
    revokedBefore: accessChanges.revokedBefore,
    rightsChangedAt: accessChanges.rightsChangedAt,
    changedAt: accessChanges.changedAt,
    role: users.role,
    appsRoles: users.appsRoles,
    disabled: users.disabled,
  }).from(accessChanges).leftJoin(users, eq(users.id, accessChanges.userId))
    .where(gte(accessChanges.changedAt, since));
  const ms = (d: Date | null) => d?.getTime() ?? 0;
  for (const row of rows) {
    registry.restore(row.userId, {
      state: row.role === null ? "deleted" : row.disabled ? "disabled" : "active",
      revokedBefore: ms(row.revokedBefore),
      rightsChangedAt: ms(row.rightsChangedAt),
      role: row.role ?? "user",
      appsRoles: row.appsRoles ?? [],
      changedAt: row.changedAt.getTime(),
    });
  }
  return rows.length;
}
