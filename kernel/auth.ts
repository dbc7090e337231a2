/**
 * Bearer-token authentication and the apps_roles guard (spec 2.2 and 6), enforced on the
 * server for every API route. Tokens are JWTs checked for signature, issuer, audience, expiry.
 */
import type { MiddlewareHandler } from "hono";
import { errors as joseErrors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose";
import { AppError } from "./errors.ts";
import type { AppEnv } from "./http.ts";
import { withDoc } from "./openapi.ts";

/** The user roles of spec 6, lowest first. */
export const ROLES = ["user", "admin", "super-user", "super-admin"] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling, read from a verified access token. */
export interface Principal {
  /** The token subject, e.g. `gridwatch|<id>`. */
  sub: string;
  /** The subject without the identity provider prefix. */
  userId: string;
  /** auth_connection_name of the user's customer. */
  customer: string;
  role: Role;
  appsRoles: string[];
  language: string;
  /**
   * When the token was issued, in ms since the epoch (revocation compares it with the user's
   * access changes): the embedded provider's `iat_ms` claim, else the start of `iat`'s second.
   */
  issuedAt?: number;
}

/** Verifies a raw bearer token and returns its principal, or throws AppError 401. */
export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}

/**
 * Revocation: decides whether a verified token still speaks for its user. Implemented outside
 * the kernel (the users module keeps who was disabled, deleted or had rights taken away) and
 * handed in by main.ts.
 */
export interface AccessCheck {
  /**
   * The principal with the rights its user holds now (fewer than the token's after a
   * demotion), or throws AppError 401 when the token was revoked (user disabled or deleted).
   * Synchronous: it runs on every request and must not touch a database.
   */
  apply(principal: Principal): Principal;
}

/** A verifier that also applies an {@link AccessCheck} to every principal it returns. */
export function checkedVerifier(verifier: TokenVerifier, check: AccessCheck): TokenVerifier {
  return { verify: async (token) => check.apply(await verifier.verify(token)) };
}

/** True when an apps_roles entry equals `key` or starts with `key:`. */
export function holdsKey(appsRoles: readonly string[], key: string): boolean {
  return appsRoles.some((entry) => entry === key || entry.startsWith(`${key}:`));
}

/** True when the user holds `key` with the admin role (`key:admin`). */
export function isAppAdmin(appsRoles: readonly string[], key: string): boolean {
  return appsRoles.includes(`${key}:admin`);
}

/** Super roles see and act across customers. */
export function isSuperRole(role: Role): boolean {
  return role === "super-user" || role === "super-admin";
}

/** The subject without its provider prefix (`gridwatch|abc` -> `abc`). */
export function userIdFromSub(sub: string): string {
  const bar = sub.lastIndexOf("|");
  return bar === -1 ? sub : sub.slice(bar + 1);
}

/** Reads a principal from verified claims; throws 401 when a claim is missing or malformed. */
export function principalFromClaims(claims: JWTPayload): Principal {
  const role = Array.isArray(claims.roles) ? claims.roles.find(isRole) : undefined;
  const appMetadata = claims.app_metadata as { customer?: unknown } | undefined;
  const appsRoles = claims.apps_roles;
  if (
    typeof claims.sub !== "string" || !role || typeof appMetadata?.customer !== "string" ||
    !Array.isArray(appsRoles) || !appsRoles.every((e) => typeof e === "string")
  ) {
    throw new AppError("common.unauthorized", { reason: "claims" });
  }
  return {
    sub: claims.sub,
    userId: userIdFromSub(claims.sub),
    customer: appMetadata.customer,
    role,
    appsRoles: appsRoles as string[],
    language: typeof claims.language === "string" ? claims.language : "en",
    ...(typeof claims.iat === "number" ? { issuedAt: issuedAtMs(claims.iat, claims.iat_ms) } : {}),
  };
}

/**
 * A token's issue time in ms: `iat_ms` when it lies within `iat`'s second (the embedded
 * provider sets it), else the start of that second (external providers).
 */
export function issuedAtMs(iat: number, iatMs: unknown): number {
  const start = Math.floor(iat) * 1000;
  return typeof iatMs === "number" && Number.isInteger(iatMs) && iatMs >= start &&
      iatMs < start + 1000
    ? iatMs
    : start;
}

function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** A verifier of RS/ES/PS-signed JWT access tokens from one issuer for one audience. */
export function createJwtVerifier(opts: {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  /**
   * Require the RFC 9068 access-token type (`at+jwt`), which keeps ID tokens out. The embedded
   * provider sets it; external providers such as Keycloak or Entra ID sign access tokens as `JWT`.
   */
  requireAccessTokenType?: boolean;
}): TokenVerifier {
  return {
    async verify(token) {
      if (token.length > 8192) throw new AppError("common.unauthorized", { reason: "size" });
      try {
        const { payload, protectedHeader } = await jwtVerify(token, opts.keys, {
          issuer: opts.issuer,
          audience: opts.audience,
          algorithms: ["RS256", "PS256", "ES256"],
          requiredClaims: ["exp", "iat", "sub"],
        });
        const typ = protectedHeader.typ?.toLowerCase().replace(/^application\//, "");
        if ((opts.requireAccessTokenType ?? true) && typ !== "at+jwt") {
          throw new AppError("common.unauthorized", { reason: "type" });
        }
        return principalFromClaims(payload);
      } catch (error) {
        if (error instanceof AppError) throw error;
        const reason = error instanceof joseErrors.JWTExpired ? "expired" : "invalid";
        throw new AppError("common.unauthorized", { reason });
      }
    },
  };
}

/** Middleware: requires a valid bearer token and stores the principal in the context. */
export function requireAuth(verifier: TokenVerifier): MiddlewareHandler<AppEnv> {
  return withDoc<MiddlewareHandler<AppEnv>>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    if (!match?.[1]) throw new AppError("common.unauthorized", { reason: "missing" });
    c.set("principal", await verifier.verify(match[1]));
    await next();
  }, { auth: true });
}

/**
 * Middleware: requires some role for `key` (or the admin role when `admin` is set). A list of
 * keys lets through a holder of any of them (screens of several modules read the grid).
 */
export function requireApp(
  key: string | readonly string[],
  opts: { admin?: boolean } = {},
): MiddlewareHandler<AppEnv> {
  const keys = typeof key === "string" ? [key] : key;
  const named = keys.join(" | ");
  return withDoc<MiddlewareHandler<AppEnv>>(async (c, next) => {
    const p = c.get("principal");
    const allowed = opts.admin
      ? keys.some((k) => isAppAdmin(p.appsRoles, k)) || p.role === "super-admin"
      : keys.some((k) => holdsKey(p.appsRoles, k));
    if (!allowed) throw new AppError("common.forbidden", { key: named });
    await next();
  }, { access: { key: named, admin: opts.admin ?? false } });
}
