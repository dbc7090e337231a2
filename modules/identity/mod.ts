/**
 * @module
 * Identity: the embedded OpenID provider (default) or an external one, and the verifier every
 * API route uses for bearer tokens.
 */
import { createLocalJWKSet, createRemoteJWKSet } from "jose";
import type { CustomersService } from "../customers/mod.ts";
import {
  type ClientAddressOptions,
  createJwtVerifier,
  type Db,
  type EventBus,
  type Logger,
  type PlatformModule,
  type TokenVerifier,
} from "../../kernel/mod.ts";
import type { UserAccessChanged, UsersService } from "../users/mod.ts";
import { deleteAccountPayloads } from "./adapter.ts";
import { subjectOf } from "./claims.ts";
import { API_AUDIENCE, OIDC_PATH, WEB_CLIENT_ID } from "./constants.ts";
import { LoginThrottle, type LoginThrottleOptions } from "./login_throttle.ts";
import { oidcProxyRoutes } from "./proxy.ts";
import { loadOrCreateSecrets, publicJwk } from "./secrets.ts";
import { type ClientTokenKeys, clientTokenKeys } from "./client_tokens.ts";

export { emailDomainAuthorized, profileClaims, subjectOf } from "./claims.ts";
export { API_AUDIENCE, EXTERNAL_AUDIENCE, WEB_CLIENT_ID } from "./constants.ts";
export type { ClientTokenClaims, ClientTokenKeys } from "./client_tokens.ts";
export type { LoginLocked } from "./events.ts";
export {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  LoginThrottle,
  type LoginThrottleOptions,
  type ThrottlePolicy,
} from "./login_throttle.ts";

/** What the web app needs to log in (served in /config.json). */
export interface WebOidcConfig {
  authority: string;
  clientId: string;
  scope: string;
}

/** The identity part of the running server; its public routes are the /oidc proxy. */
export interface Identity extends PlatformModule {
  verifier: TokenVerifier;
  /** The login throttle of the embedded provider (absent with an external provider). */
  throttle?: LoginThrottle;
  web: WebOidcConfig;
  /**
   * Signs API clients' access tokens (client credentials) with the installation's own keys,
   * issuer `<PUBLIC_URL>/oidc`, also when users log in at an external provider.
   */
  clientTokens: ClientTokenKeys;
  close(): Promise<void>;
}

export interface IdentityOptions {
  publicUrl: string;
  appName: string;
  db: Db;
  users: UsersService;
  customers: CustomersService;
  logger: Logger;
  external?: { issuer: string; clientId: string; audience: string } | undefined;
  accessTokenTtl?: number;
  /**
   * Receives `identity.loginLocked`; delivers `users.accessChanged` (a revoked user's provider
   * sessions and refresh tokens are deleted, an admin's password reset ends a lockout).
   */
  bus: EventBus;
  /** How the login form finds the client address (TRUST_PROXY). */
  clientAddress?: ClientAddressOptions;
  /** Throttling policies and clock (tests). */
  throttle?: LoginThrottleOptions;
}

const SCOPE = "openid profile email offline_access";

/** Starts the embedded provider, or wires the verifier to an external issuer's JWKS. */
export async function createIdentity(opts: IdentityOptions): Promise<Identity> {
  if (opts.external) {
    const { issuer, clientId, audience } = opts.external;
    const discovery = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`);
    if (!discovery.ok) {
      throw new Error(
        `Cannot read the OpenID configuration of ${issuer}: HTTP ${discovery.status}`,
      );
    }
    const { jwks_uri: jwksUri, issuer: realIssuer } = await discovery.json() as {
      jwks_uri: string;
      issuer: string;
    };
    // API clients are this product's own: their tokens are signed here even then.
    const own = await loadOrCreateSecrets(opts.db);
    return {
      clientTokens: await clientTokenKeys(own, `${opts.publicUrl}${OIDC_PATH}`),
      verifier: createJwtVerifier({
        keys: createRemoteJWKSet(new URL(jwksUri)),
        issuer: realIssuer,
        audience,
        requireAccessTokenType: false,
      }),
      web: { authority: issuer, clientId, scope: SCOPE },
      name: "identity",
      close: () => Promise.resolve(),
    };
  }
  const secrets = await loadOrCreateSecrets(opts.db);
  const logger = opts.logger.child({ module: "identity" });
  const throttle = new LoginThrottle(opts.throttle);
  const unsubscribe = opts.bus.subscribe(
    "users.accessChanged",
    (change) => onAccessChanged(opts.db, throttle, logger, change),
  );
  // Loaded only when embedded: oidc-provider prints a runtime notice as soon as it is imported.
  const { startProvider } = await import("./provider.ts");
  const running = await startProvider({ ...opts, secrets, logger, throttle });
  const issuer = `${opts.publicUrl}${OIDC_PATH}`;
  const keys = createLocalJWKSet({ keys: secrets.signingKeys.map(publicJwk) });
  return {
    verifier: createJwtVerifier({ keys, issuer, audience: API_AUDIENCE }),
    clientTokens: await clientTokenKeys(secrets, issuer),
    throttle,
    web: { authority: issuer, clientId: WEB_CLIENT_ID, scope: SCOPE },
    name: "identity",
    // The proxy's routes carry the whole /oidc path.
    public: [{
      prefix: "/",
      routes: oidcProxyRoutes(running.port, opts.publicUrl, opts.clientAddress),
    }],
    // Token requests and the login form are small; the provider's own parser fails beyond 16 KiB.
    bodyLimits: [{ path: /^\/oidc\//, bytes: 16 * 1024 }],
    close: () => {
      unsubscribe();
      return running.close();
    },
  };
}

/**
 * A revoked user (disabled, deleted, password set by an admin) loses their provider sessions
 * and refresh tokens; an admin's password reset also ends the account's login lockout.
 */
async function onAccessChanged(
  db: Db,
  throttle: LoginThrottle,
  logger: Logger,
  change: UserAccessChanged,
): Promise<void> {
  if (change.passwordReset) throttle.clear(change.email);
  if (!change.revoked) return;
  const deleted = await deleteAccountPayloads(db, subjectOf(change.userId));
  logger.info("Provider sessions and refresh tokens revoked", {
    userId: change.userId,
    deleted,
  });
}
