/**
 * @module
 * The shared kernel: configuration, logging, errors, databases, the event bus, HTTP helpers
 * and authentication. It imports no other module.
 */
export { type AppConfig, ConfigError, loadConfig } from "./config.ts";
export { createLogger, type Logger, type LogLevel } from "./logger.ts";
export {
  AppError,
  bodyForStatus,
  type ErrorBody,
  type FieldIssue,
  validationError,
} from "./errors.ts";
export { ERROR_CATALOGUE, findByCode, findByKey } from "./error_catalogue.ts";
export { type Database, type Db, openDatabase } from "./db.ts";
export { migrate, migrationsKey, openMigratedDatabase } from "./migrate.ts";
export { EventBus, type EventMap } from "./events.ts";
export { hashPassword, verifyPassword } from "./passwords.ts";
export { serveWebApp } from "./static.ts";
export {
  type AccessCheck,
  checkedVerifier,
  createJwtVerifier,
  holdsKey,
  isAppAdmin,
  issuedAtMs,
  isSuperRole,
  type Principal,
  principalFromClaims,
  requireApp,
  requireAuth,
  type Role,
  ROLES,
  type TokenVerifier,
  userIdFromSub,
} from "./auth.ts";
export {
  type AppEnv,
  applySecurityHeaders,
  CONTENT_SECURITY_POLICY,
  createHttpApp,
  validate,
} from "./http.ts";
export { fieldIssues } from "./field_issues.ts";
export { clientAddress, type ClientAddressOptions } from "./client_address.ts";
export type { WebConfig } from "./contract.ts";
export {
  type ApiRoute,
  doc,
  openApiDocument,
  type RouteDocPart,
  routeDocs,
  withDoc,
} from "./openapi.ts";
export { API_PREFIXES, type ApiPrefix, isApiPath } from "./api_prefixes.ts";
export { type Mount, type PlatformModule } from "./module.ts";
export {
  A4,
  ACCENT,
  fit,
  INK,
  MARGIN,
  MUTED,
  openPdf,
  PageWriter,
  RULE,
  SHADE,
  wrap,
} from "./pdf.ts";
export { type WallClock, wallClock, zoneOffset } from "./wall_clock.ts";
export {
  type BodyLimit,
  DEFAULT_BODY_BYTES,
  inputGate,
  MAX_HEADER_BYTES,
  readLimited,
} from "./input_gate.ts";
export { CUSTOMER_HEADER, type Tenant, tenant, type TenantDirectory } from "./tenant.ts";
export { type JobContext, type JobQueue, JobRunner, type JobRunnerOptions } from "./jobs.ts";
