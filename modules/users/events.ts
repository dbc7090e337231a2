/**
 * Integration events of the users module: e-mail validation (notifications sends the mail) and
 * access changes (revocation; docs/operations.md, "Revocation").
 */
import type { Role } from "../../kernel/mod.ts";

/** A user asked to validate their e-mail address; `link` is the absolute validation URL. */
export interface EmailValidationRequested {
  customerKey: string;
  userId: string;
  email: string;
  language: string;
  link: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "users.emailValidationRequested": EmailValidationRequested;
    "users.accessChanged": UserAccessChanged;
  }
}

/**
 * A user's access changed (user management): they were disabled, enabled or deleted, their
 * role or apps_roles changed, or an administrator set a new password. The users module's
 * revocation registry applies it to every request; the notifications module closes the
 * user's STOMP sessions; the identity module ends their provider sessions and refresh tokens
 * (when `revoked`) and clears the account's login lockout (when `passwordReset`).
 */
export interface UserAccessChanged {
  userId: string;
  customerKey: string;
  /** The user's e-mail address after the change. */
  email: string;
  /** When the change was committed (ISO 8601). */
  at: string;
  /** The user's state after the change. */
  state: "active" | "disabled" | "deleted";
  /** The rights the user holds after the change. */
  role: Role;
  appsRoles: string[];
  /** Tokens issued before `at` no longer count (disabled, deleted, password set by an admin). */
  revoked: boolean;
  /** The role or apps_roles changed: tokens issued before `at` act with the rights above. */
  rightsChanged: boolean;
  /** A right was taken away: a lower role, or an apps_roles entry removed or lowered. */
  narrowed: boolean;
  /** An administrator set a new password. */
  passwordReset: boolean;
}
