/**
 * The client credentials grant (RFC 6749 4.4) at the token endpoint `POST /oidc/token`. It is
 * answered here, in front of the embedded provider, rather than by oidc-provider's
 * clientCredentials feature: the provider compares client secrets in plain text (ours are kept
 * only hashed), cannot count tokens against a monthly quota inside the same atomic step, and is
 * absent when users log in at an external issuer. Every other grant passes on to the provider.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../kernel/mod.ts";
import type { ClientTokenKeys } from "../identity/mod.ts";
import { PERMISSION_SCOPES } from "./contract.ts";
import type { ApiClientsService, ClientRecord } from "./service.ts";

/** Lifetime of a client's access token (one hour). */
export const CLIENT_TOKEN_TTL = 3600;

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** An RFC 6749 5.2 error answer. */
function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Response {
  return new Response(JSON.stringify({ error, error_description: description, ...extra }), {
    status,
    headers: { "Content-Type": "application/json", ...NO_STORE, ...headers },
  });
}

const invalidClient = (basic: boolean) =>
  oauthError(401, "invalid_client", "Client authentication failed", {
    // RFC 6749 5.2: a failed Basic authentication names the scheme the client should use.
    "WWW-Authenticate": basic
      ? 'Basic realm="gridwatch", error="invalid_client"'
      : 'Basic realm="gridwatch"',
  });

/** The credentials of a token request: Basic header or form fields, never both. */
function credentialsOf(
  header: string | undefined,
  form: URLSearchParams,
): { id: string; secret: string; basic: boolean } | "invalid" | null {
  const postId = form.get("client_id");
  const postSecret = form.get("client_secret");
  const match = header ? /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim()) : null;
  if (header && !match) return "invalid";
  if (match) {
    if (postSecret !== null) return "invalid";
    let decoded: string;
    try {
      decoded = new TextDecoder("utf-8", { fatal: true }).decode(
        Uint8Array.from(atob(match[1]!), (ch) => ch.charCodeAt(0)),
      );
    } catch {
      return "invalid";
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) return "invalid";
    try {
      // RFC 6749 2.3.1: both parts are form-urlencoded before Basic encoding.
      const id = decodeURIComponent(decoded.slice(0, colon).replaceAll("+", " "));
      const secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll("+", " "));
      if (postId !== null && postId !== id) return "invalid";
      return { id, secret, basic: true };
    } catch {
      return "invalid";
    }
  }
  if (postId === null || postSecret === null) return null;
  return { id: postId, secret: postSecret, basic: false };
}

/** The scopes to grant: the requested ones (all the client's when none), or null when not allowed. */
export function grantedScopes(requested: string | null, client: ClientRecord): string[] | null {
  const allowed = PERMISSION_SCOPES[client.permission];
  if (requested === null || requested.trim() === "") return [...allowed];
  const asked = [...new Set(requested.trim().split(/ +/))];
  return asked.every((s) => (allowed as readonly string[]).includes(s)) ? asked : null;
}

/**
 * Middleware on `/oidc/token`: answers `grant_type=client_credentials`, passes every other
 * request on (to the embedded provider's proxy, or to 404 with an external issuer).
 */
export function clientCredentialsGrant(
  service: ApiClientsService,
  keys: ClientTokenKeys,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return await next();
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return await next();
    // A clone: other grants go on to the provider's proxy with the body unread.
    const form = new URLSearchParams(await c.req.raw.clone().text());
    if (form.get("grant_type") !== "client_credentials") return await next();
    return await answer(c, form, service, keys);
  };
}

async function answer(
  c: Context<AppEnv>,
  form: URLSearchParams,
  service: ApiClientsService,
  keys: ClientTokenKeys,
): Promise<Response> {
  const credentials = credentialsOf(c.req.header("authorization"), form);
  if (credentials === "invalid") {
    return oauthError(400, "invalid_request", "Send the client credentials once: Basic or form");
  }
  if (!credentials) return invalidClient(false);
  const client = await service.authenticate(credentials.id, credentials.secret);
  if (!client) return invalidClient(credentials.basic);
  const scopes = grantedScopes(form.get("scope"), client);
  if (!scopes) {
    return oauthError(400, "invalid_scope", "The scope is not among the client's scopes");
  }
  if (!await service.reserveToken(client)) {
    const limit = service.limits.tokensPerMonth;
    return oauthError(
      429,
      "quota_exceeded",
      `The customer's ${limit} tokens of this month are used`,
      { "Retry-After": String(service.secondsToNextMonth()) },
      { key: "apiClients.tokenQuota", params: { limit } },
    );
  }
  const token = await keys.sign({
    clientId: client.clientId,
    customer: client.customerKey,
    scopes,
    secretVersion: client.secretVersion,
  }, CLIENT_TOKEN_TTL);
  c.get("logger")?.info("API client token issued", { clientId: client.clientId });
  return new Response(
    JSON.stringify({
      access_token: token,
      token_type: "Bearer",
      expires_in: CLIENT_TOKEN_TTL,
      scope: scopes.join(" "),
    }),
    { status: 200, headers: { "Content-Type": "application/json", ...NO_STORE } },
  );
}
