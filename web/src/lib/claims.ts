/** Reads the profile claims of the token (docs/contracts.md, "Tokens"). */
import type { Role } from "../../../modules/users/contract.ts";

/** The claims the web app uses, with safe defaults. */
export interface TokenClaims {
  sub: string;
  /** The subject without the identity provider prefix. */
  userId: string;
  name: string;
  email: string;
  language: string | null;
  startPage: string | null;
  appsRoles: string[];
  role: Role;
  /** auth_connection_name of the user's customer. */
  customer: string | null;
  documentationKey: string | null;
  userMetadata: Record<string, unknown>;
}

const ROLES: readonly Role[] = ["user", "admin", "super-user", "super-admin"];

/** The subject without its provider prefix (`gridwatch|abc` -> `abc`). */
export function userIdFromSub(sub: string): string {
  const bar = sub.lastIndexOf("|");
  return bar === -1 ? sub : sub.slice(bar + 1);
}

/** True for the super-user and super-admin roles, which see every customer. */
export function isSuperRole(role: Role): boolean {
  return role === "super-user" || role === "super-admin";
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** Highest role listed in the `roles` claim, `user` when none is known. */
export function roleFrom(roles: unknown): Role {
  const list = Array.isArray(roles) ? roles : [];
  let best: Role = "user";
  for (const role of ROLES) if (list.includes(role)) best = role;
  return best;
}

/** Reads the claims of an OIDC profile (ID token or userinfo). */
export function readClaims(profile: Record<string, unknown>): TokenClaims {
  const sub = str(profile.sub) ?? "";
  const appMetadata = obj(profile.app_metadata);
  const documentation = obj(appMetadata.documentation);
  return {
    sub,
    userId: userIdFromSub(sub),
    name: str(profile.name) ?? str(profile.email) ?? "",
    email: str(profile.email) ?? "",
    language: str(profile.language),
    startPage: str(profile.start_page),
    appsRoles: Array.isArray(profile.apps_roles)
      ? profile.apps_roles.filter((r): r is string => typeof r === "string")
      : [],
    role: roleFrom(profile.roles),
    customer: str(appMetadata.customer),
    documentationKey: str(documentation.key),
    userMetadata: obj(profile.user_metadata),
  };
}
