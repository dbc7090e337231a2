/**
 * Authentication of external_v1: API client tokens only (audience `urn:gridwatch:external`; a
 * user's token, issued for the product's own API, is refused), checked against the client's
 * current secret version on every call so a rotated or deleted client is refused at once; the
 * scope guard; per-client rate limits; and the audit log of every authenticated call.
 */
import type { Context, MiddlewareHandler } from "hono";
import { errors as joseErrors, jwtVerify } from "jose";
import {
  type AppEnv,
  AppError,
  type Tenant,
  type TenantDirectory,
  withDoc,
} from "../../../kernel/mod.ts";
import type { ClientTokenKeys } from "../../identity/mod.ts";
import type { Scope } from "../contract.ts";
import type { ApiClientsService, ClientRecord } from "../service.ts";

/** What a verified client token tells. */
export interface ExternalCaller {
  client: ClientRecord;
  scopes: readonly string[];
  tenant: Tenant;
}

/** The context of external routes: the caller besides the shared variables. */
export interface ExternalEnv {
  Variables: AppEnv["Variables"] & { caller: ExternalCaller };
}

/** Verifies a bearer client token; 401 `common.unauthorized` with a reason otherwise. */
export async function verifyClientToken(
  token: string,
  keys: ClientTokenKeys,
  service: ApiClientsService,
  tenants: TenantDirectory,
): Promise<ExternalCaller> {
  if (token.length > 8192) throw new AppError("common.unauthorized", { reason: "size" });
  let payload;
  try {
    const verified = await jwtVerify(token, keys.keys, {
      issuer: keys.issuer,
      audience: keys.audience,
      algorithms: ["RS256"],
      requiredClaims: ["exp", "iat", "sub", "client_id", "ver"],
      typ: "at+jwt",
    });
    payload = verified.payload;
  } catch (error) {
    const reason = error instanceof joseErrors.JWTExpired ? "expired" : "invalid";
    throw new AppError("common.unauthorized", { reason });
  }
  const clientId = String(payload.client_id);
  const client = await service.byClientId(clientId);
  if (!client || client.secretVersion !== payload.ver || client.customerKey !== payload.customer) {
    throw new AppError("common.unauthorized", { reason: "revoked" });
  }
  const tenant = await tenants.byKey(client.customerKey);
  if (!tenant) throw new AppError("common.unauthorized", { reason: "revoked" });
  const scopes = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
  return { client, scopes, tenant };
}

/** A fixed one-minute window per client (X-RateLimit-* headers; 429 with Retry-After past it). */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(readonly perMinute: number, private readonly now: () => number = Date.now) {}

  /** Counts one call; returns the headers to send and whether the call may go on. */
  take(clientId: string): { allowed: boolean; headers: Record<string, string> } {
    const now = this.now();
    const start = now - (now % 60_000);
    let window = this.#windows.get(clientId);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.#windows.set(clientId, window);
      if (this.#windows.size > 10_000) this.#prune(start);
    }
    window.count++;
    const reset = Math.ceil((start + 60_000 - now) / 1000);
    const allowed = window.count <= this.perMinute;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(this.perMinute),
      "X-RateLimit-Remaining": String(Math.max(0, this.perMinute - window.count)),
      "X-RateLimit-Reset": String(reset),
    };
    if (!allowed) headers["Retry-After"] = String(reset);
    return { allowed, headers };
  }

  #prune(start: number): void {
    for (const [id, w] of this.#windows) if (w.start !== start) this.#windows.delete(id);
  }
}

/** Middleware of every external route but the document: token, rate limit, audit. */
export function externalAuth(opts: {
  keys: ClientTokenKeys;
  service: ApiClientsService;
  tenants: TenantDirectory;
  limiter: RateLimiter;
}): MiddlewareHandler<ExternalEnv> {
  return withDoc<MiddlewareHandler<ExternalEnv>>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    if (!match?.[1]) throw new AppError("common.unauthorized", { reason: "missing" });
    const caller = await verifyClientToken(match[1], opts.keys, opts.service, opts.tenants);
    const started = performance.now();
    const { allowed, headers } = opts.limiter.take(caller.client.clientId);
    if (allowed) {
      c.set("caller", caller);
      // The tenant of the shared context: handlers written for users read it the same way.
      c.set("tenant", caller.tenant);
      await next();
    } else {
      c.res = problemResponse(
        c,
        new AppError("common.rateLimited", { limit: opts.limiter.perMinute }),
      );
    }
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    await opts.service.audit({
      customerKey: caller.client.customerKey,
      clientId: caller.client.clientId,
      method: c.req.method,
      route: c.req.path,
      status: c.res.status,
      durationMs: Math.round(performance.now() - started),
    }).catch((error) => c.get("logger")?.error("Audit log write failed", { error }));
  }, { auth: true });
}

/** Middleware: the caller's token must carry `scope` (403 otherwise, also for Read on a write). */
export function requireScope(scope: Scope): MiddlewareHandler<ExternalEnv> {
  return withDoc<MiddlewareHandler<ExternalEnv>>(async (c, next) => {
    if (!c.get("caller").scopes.includes(scope)) {
      throw new AppError("apiClients.insufficientScope", { scope });
    }
    await next();
  }, { access: { key: scope, admin: false } });
}

/**
 * Documents the error statuses a route answers besides those of every route (401, 403, 429),
 * of its inputs (400) and of its path ids (404): the document lists each with problem details.
 */
export function errorStatuses(...statuses: number[]): MiddlewareHandler<ExternalEnv> {
  return withDoc<MiddlewareHandler<ExternalEnv>>(
    async (_c, next) => await next(),
    { errors: statuses },
  );
}

/** An error as RFC 9457 problem details (`application/problem+json`). */
export function problemResponse(c: Context, error: AppError): Response {
  const body = {
    type: `urn:gridwatch:problem:${error.entry.key}`,
    title: error.entry.key,
    status: error.status,
    instance: c.req.path,
    ...error.toBody(),
  };
  const headers: Record<string, string> = { "Content-Type": "application/problem+json" };
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="external_v1"';
  if (error.entry.key === "apiClients.insufficientScope") {
    headers["WWW-Authenticate"] = `Bearer realm="external_v1", error="insufficient_scope", scope="${
      String(error.params.scope)
    }"`;
  }
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
