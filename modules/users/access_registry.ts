/**
 * Token revocation without a database round trip per request: the users whose access changed
 * while tokens issued before the change may still be valid, held in memory. Loaded at start
 * from `users.access_changes` and kept current by `users.accessChanged` events.
 *
 * A token (its issue time in ms, kernel `Principal.issuedAt`) of a user with an entry:
 * - disabled or deleted user: refused (401), whatever its age;
 * - issued before `revokedBefore` (disabled, deleted, password set by an admin, even if the
 *   user was enabled again since): refused (401);
 * - issued at or before `rightsChangedAt`: acts with the user's current role and apps_roles, so
 *   a right taken away answers 403 where the route needs it and the rest keeps working.
 *
 * The embedded provider's tokens carry their issue time in ms (`iat_ms`); a token with only
 * `iat` (an external provider) counts from the start of its second, so one issued in the same
 * second as a change is treated as older (refused after a revocation, given the current rights
 * after a rights change).
 */
import { type AccessCheck, AppError, type Principal, type Role } from "../../kernel/mod.ts";
import type { UserAccessChanged } from "./events.ts";

/** What the registry keeps of one user. */
export interface AccessEntry {
  state: "active" | "disabled" | "deleted";
  /** Tokens issued before this (ms since the epoch) are refused; 0 for none. */
  revokedBefore: number;
  /** Tokens issued at or before this (ms since the epoch) get the rights below; 0 for none. */
  rightsChangedAt: number;
  role: Role;
  appsRoles: readonly string[];
  /** The latest change in ms since the epoch: the entry is dropped `horizonMs` after it. */
  changedAt: number;
}

/** Options of {@link AccessRegistry}. */
export interface AccessRegistryOptions {
  /**
   * How long a change matters: the longest lifetime of an access token plus the clock skew
   * tolerated. Older entries are dropped (every token issued before them has expired).
   */
  horizonMs: number;
  /** The clock (tests inject one). */
  now?: () => number;
}

/** The in-memory revocation registry; `apply` is the kernel's {@link AccessCheck}. */
export class AccessRegistry implements AccessCheck {
  readonly #entries = new Map<string, AccessEntry>();
  readonly #horizonMs: number;
  readonly #now: () => number;

  constructor(options: AccessRegistryOptions) {
    this.#horizonMs = options.horizonMs;
    this.#now = options.now ?? Date.now;
  }

  /** Number of users with an entry. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry of a user (tests and diagnostics). */
  entry(userId: string): Readonly<AccessEntry> | undefined {
    return this.#entries.get(userId);
  }

  /** Sets a user's entry as read from the database at start. */
  restore(userId: string, entry: AccessEntry): void {
    if (entry.changedAt >= this.#now() - this.#horizonMs) this.#entries.set(userId, entry);
  }

  /** Applies one access change (the `users.accessChanged` event). */
  record(change: UserAccessChanged): void {
    this.prune();
    const at = Date.parse(change.at);
    const before = this.#entries.get(change.userId);
    this.#entries.set(change.userId, {
      state: change.state,
      revokedBefore: Math.max(before?.revokedBefore ?? 0, change.revoked ? at : 0),
      rightsChangedAt: Math.max(before?.rightsChangedAt ?? 0, change.rightsChanged ? at : 0),
      role: change.role,
      appsRoles: [...change.appsRoles],
      changedAt: Math.max(before?.changedAt ?? 0, at),
    });
  }

  /** Drops the entries no valid token can predate any more. */
  prune(): void {
    const oldest = this.#now() - this.#horizonMs;
    for (const [userId, entry] of this.#entries) {
      if (entry.changedAt < oldest) this.#entries.delete(userId);
    }
  }

  /** The principal with its user's current rights, or 401 when its token was revoked. */
  apply(principal: Principal): Principal {
    const entry = this.#entries.get(principal.userId);
    if (!entry) return principal;
    const issuedAt = principal.issuedAt ?? 0;
    if (entry.state !== "active" || issuedAt < entry.revokedBefore) {
      throw new AppError("common.unauthorized", { reason: "revoked" });
    }
    if (issuedAt > entry.rightsChangedAt) return principal;
    return { ...principal, role: entry.role, appsRoles: [...entry.appsRoles] };
  }
}
