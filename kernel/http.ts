/**
 * The HTTP shell shared by every module: request ids, access logs, security headers, and one
 * error handler that turns every failure into a catalogue body without leaking stack traces.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodType } from "zod";
import { zValidator } from "@hono/zod-validator";
import type { Principal } from "./auth.ts";
import { AppError, bodyForStatus, validationError } from "./errors.ts";
import { fieldIssues } from "./field_issues.ts";
import type { Logger } from "./logger.ts";
import { withDoc } from "./openapi.ts";
import type { Tenant } from "./tenant.ts";

/**
 * Context variables every handler may read: `principal` behind `requireAuth`; behind the tenant
 * middleware (every module's `api` routes) `tenant`, the customer the call acts on, and
 * `homeTenant`, the caller's own customer (they differ only for a super role that picked one).
 */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    principal: Principal;
    tenant: Tenant;
    homeTenant: Tenant;
  };
}

/** The Content-Security-Policy of every response: nothing is loaded from outside the product. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join("; ");

/**
 * Paths whose requests are logged at debug level, with a summary at info once a minute: the
 * cell protocol sends hundreds of requests a second at 5,000 cells.
 */
const SUMMARIZED = /^\/ingest\//;
const SUMMARY_MS = 60_000;

/** Counts of summarized requests since the last summary line. */
class RequestSummary {
  #since = performance.now();
  #count = 0;
  #statuses: Record<number, number> = {};
  #slowest = 0;
  #totalMs = 0;

  constructor(private readonly logger: Logger) {}

  add(status: number, ms: number): void {
    this.#count++;
    this.#statuses[status] = (this.#statuses[status] ?? 0) + 1;
    this.#totalMs += ms;
    if (ms > this.#slowest) this.#slowest = ms;
    const now = performance.now();
    if (now - this.#since < SUMMARY_MS) return;
    this.logger.info("ingest requests", {
      count: this.#count,
      perSecond: Math.round((this.#count * 1000) / (now - this.#since)),
      statuses: this.#statuses,
      meanMs: Math.round((this.#totalMs / this.#count) * 10) / 10,
      slowestMs: this.#slowest,
    });
    this.#since = now;
    this.#count = 0;
    this.#statuses = {};
    this.#slowest = 0;
    this.#totalMs = 0;
  }
}

/** Creates the root app with the shared middleware and error handling. */
export function createHttpApp(logger: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const summary = new RequestSummary(logger);
  app.use(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    const log = logger.child({ requestId });
    c.set("requestId", requestId);
    c.set("logger", log);
    const started = performance.now();
    await next();
    c.header("X-Request-Id", requestId);
    applySecurityHeaders(c.res.headers);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const entry = { method: c.req.method, path: c.req.path, status: c.res.status, ms };
    if (SUMMARIZED.test(c.req.path)) {
      log.debug("request", entry);
      summary.add(c.res.status, ms);
    } else log.info("request", entry);
  });
  app.onError((error, c) => {
    if (error instanceof AppError) return c.json(error.toBody(), error.status as 400);
    if (error instanceof HTTPException) {
      return c.json(bodyForStatus(error.status), error.status);
    }
    c.get("logger")?.error("Unhandled error", { error });
    return c.json(bodyForStatus(500), 500);
  });
  app.notFound((c) => c.json(bodyForStatus(404), 404));
  return app;
}

/** Sets the security headers every response carries (pages, API and static files). */
export function applySecurityHeaders(headers: Headers): void {
  // Responses of proxied servers (the identity provider) may already carry a stricter policy.
  if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  }
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "geolocation=(), camera=(), microphone=()");
}

/**
 * zod validation of a request part with a contract's schema. A failure answers 400
 * `common.validation` with the field errors `{path, key, params}` (kernel/field_issues.ts);
 * the schema is also what the OpenAPI document shows for the part.
 */
export function validate<T extends ZodType, Target extends "json" | "query" | "param">(
  target: Target,
  schema: T,
) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(fieldIssues(result.error.issues, result.data));
  });
  return withDoc(middleware, { [target]: schema });
}
