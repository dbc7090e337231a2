/**
 * Access tokens of API clients (OAuth 2.0 client credentials), signed with the installation's
 * own keys for the external API's audience. The API clients module answers the grant and
 * checks its tokens; identity holds the keys, so it is the one place that signs.
 */
import { createLocalJWKSet, importJWK, type JWTVerifyGetKey, SignJWT } from "jose";
import { EXTERNAL_AUDIENCE } from "./constants.ts";
import { type InstallSecrets, publicJwk } from "./secrets.ts";

/** What an API client's access token says. */
export interface ClientTokenClaims {
  /** The client's public id (also `sub`). */
  clientId: string;
  /** The customer key the client belongs to. */
  customer: string;
  /** Granted scopes. */
  scopes: readonly string[];
  /** The client's secret version: a rotation refuses older tokens. */
  secretVersion: number;
}

/** Signs and checks API client tokens. */
export interface ClientTokenKeys {
  issuer: string;
  audience: string;
  /** The public keys a verifier checks the tokens with (the install's signing keys). */
  keys: JWTVerifyGetKey;
  /** An RS256 `at+jwt` token valid `ttlSeconds` from now. */
  sign(claims: ClientTokenClaims, ttlSeconds: number): Promise<string>;
}

/** The client-token keys of an installation. */
export async function clientTokenKeys(
  secrets: InstallSecrets,
  issuer: string,
): Promise<ClientTokenKeys> {
  const jwk = secrets.signingKeys[0];
  if (!jwk?.kid) throw new Error("Cannot sign client tokens: the install has no signing key");
  const key = await importJWK(jwk, "RS256");
  return {
    issuer,
    audience: EXTERNAL_AUDIENCE,
    keys: createLocalJWKSet({ keys: secrets.signingKeys.map(publicJwk) }),
    sign: (claims, ttlSeconds) =>
      new SignJWT({
        client_id: claims.clientId,
        customer: claims.customer,
        scope: claims.scopes.join(" "),
        ver: claims.secretVersion,
      })
        .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: jwk.kid! })
        .setIssuer(issuer)
        .setAudience(EXTERNAL_AUDIENCE)
        .setSubject(claims.clientId)
        .setJti(crypto.randomUUID())
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(key),
  };
}
