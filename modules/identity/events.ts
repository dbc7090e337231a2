/** Integration events of the identity module (consumed by notifications). */

/**
 * A user's account was locked after too many failed sign-ins on the embedded provider's login
 * form (docs/operations.md, "Lockout policy"). Only for accounts that exist.
 */
export interface LoginLocked {
  customerKey: string;
  userId: string;
  email: string;
  /** When the lockout began and ends (ISO 8601). */
  at: string;
  until: string;
  /** The client address of the failure that locked it, when known. */
  address: string | null;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "identity.loginLocked": LoginLocked;
  }
}
