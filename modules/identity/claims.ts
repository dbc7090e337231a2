/** The token and profile claims of spec 2.9/3, built from a user and its customer. */
import type { CustomerDto } from "../customers/mod.ts";
import type { LoginUser } from "../users/mod.ts";

/** The provider prefix of every subject issued by the embedded identity provider. */
export const SUBJECT_PREFIX = "gridwatch";

/** `gridwatch|<user id>`. */
export function subjectOf(userId: string): string {
  return `${SUBJECT_PREFIX}|${userId}`;
}

/** Profile claims shared by the ID token, userinfo and the access token. */
export function profileClaims(user: LoginUser, customer: CustomerDto): Record<string, unknown> {
  const documentation = (user.app_metadata.documentation as { key?: string } | undefined) ??
    { key: customer.auth_connection_name };
  return {
    sub: subjectOf(user.user_id),
    name: user.name,
    email: user.email,
    email_verified: user.user_metadata.email_validated === true,
    language: user.language,
    start_page: user.start_page,
    apps_roles: user.apps_roles,
    roles: [user.role],
    app_metadata: { ...user.app_metadata, documentation, customer: customer.auth_connection_name },
    user_metadata: user.user_metadata,
  };
}

/**
 * The claims the provider adds to an access token: the profile and `iat_ms`, the issue time in
 * ms within `iat`'s second (revocation compares it with access changes, kernel `issuedAtMs`).
 * The time is read before the account lookup: a new token has no `iat` yet (the provider sets
 * it to this second), and a lookup ending in the next second would put `iat_ms` outside `iat`'s
 * second, which counts as that second's start and so before a revocation made earlier in it.
 */
export async function accessTokenClaims(
  tokenIat: unknown,
  lookUp: () => Promise<Record<string, unknown> | undefined>,
  now: () => number = Date.now,
): Promise<Record<string, unknown> | undefined> {
  const issuedMs = now();
  const iat = typeof tokenIat === "number" ? tokenIat : Math.floor(issuedMs / 1000);
  const iatMs = Math.max(iat * 1000, Math.min(issuedMs, iat * 1000 + 999));
  const claims = await lookUp();
  if (!claims) return undefined;
  const { sub: _sub, ...rest } = claims;
  return { ...rest, iat_ms: iatMs };
}

/** True when the e-mail's domain is among the customer's authorized domains (or none are set). */
export function emailDomainAuthorized(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).trim().toLowerCase();
  return domains.some((d) => d.trim().toLowerCase() === domain);
}
