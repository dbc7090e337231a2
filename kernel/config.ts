/**
 * Environment configuration, validated once at start. Modules never read the environment:
 * main.ts hands each its slice of this typed config.
 */
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const configSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  DEMO_SEED: booleanFlag.default(true),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  WEB_DIST: z.string().min(1).default("./web/dist"),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(70).max(86400).default(3600),
  SIMULATOR: booleanFlag.default(true),
  SIMULATOR_BACKFILL_DAYS: z.coerce.number().int().min(0).max(30).default(14),
  DUCKDB_MEMORY_LIMIT: z.string().regex(/^\d+(MB|GB)$/, "must look like 384MB or 2GB").default(
    "384MB",
  ),
  DUCKDB_CHECKPOINT_THRESHOLD: z.string().regex(/^\d+(KB|MB|GB)$/, "must look like 16MB or 1KB")
    .default("16MB"),
  RAW_LIFETIME_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  SESSION_INACTIVITY_MINUTES: z.coerce.number().int().min(0).max(1440).default(30),
  VENDOR_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).max(254).default("GridWatch <no-reply@gridwatch.invalid>"),
  E2E_HOOKS: booleanFlag.default(false),
  TRUST_PROXY: booleanFlag.default(false),
  MQTT_URL: z.string().regex(/^mqtts?:\/\//, "must start with mqtt:// or mqtts://").optional(),
  MQTT_CLIENT_ID: z.string().regex(/^[\w.-]{1,64}$/, "letters, digits, . _ - (at most 64)")
    .optional(),
  API_MAX_CLIENTS: z.coerce.number().int().min(1).max(1000).default(5),
  API_TOKENS_PER_MONTH: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  PQ_MAX_REPORTS: z.coerce.number().int().min(1).max(10_000).default(50),
});

/** The validated configuration of the whole process. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  logLevel: "debug" | "info" | "warn" | "error";
  demoSeed: boolean;
  webDist: string;
  /** Lifetime of the embedded provider's access tokens in seconds. */
  accessTokenTtl: number;
  /** Run the demo utility's cell simulator (only with the demo seed). */
  simulator: boolean;
  /** Days of history the simulator fills in before it goes live. */
  simulatorBackfillDays: number;
  /** DuckDB's buffer pool limit (it spills to disk beyond it). */
  duckdbMemoryLimit: string;
  /** WAL size after which DuckDB checkpoints into the file (the crash test makes it tiny). */
  duckdbCheckpointThreshold: string;
  /** Days 20-s raw measurements are kept (the spec's "data lifetime"); older batches are refused. */
  rawLifetimeDays: number;
  /** Minutes without input before the web app shows the session dialog (0 disables). */
  sessionInactivityMinutes: number;
  /** SMTP server for e-mail notifications; unset keeps mails in the outbox (GET /nsm/outbox). */
  smtpUrl: string | undefined;
  /** Sender of the e-mails. */
  mailFrom: string;
  /** The footer's vendor link; unset: the product's own about page in the help. */
  vendorUrl: string | undefined;
  /** Test hooks of the end-to-end tests (POST /nsm/e2e/...); never set in production. */
  e2eHooks: boolean;
  /**
   * A reverse proxy in front sets X-Forwarded-For and clients cannot reach the server past it:
   * the client address (login throttling, logs) is its last entry, else the connection's peer.
   */
  trustProxy: boolean;
  /** Set when an external OpenID provider replaces the embedded one. */
  externalOidc: { issuer: string; clientId: string; audience: string } | undefined;
  /** Set when cells (or gateways) publish their batches to an MQTT broker (docs/scaling.md). */
  mqtt: { url: string; clientId: string } | undefined;
  /** External API (spec 9): clients per customer, tokens per customer and month, calls per minute. */
  apiClients: { maxClients: number; tokensPerMonth: number; ratePerMinute: number };
  /** Power-quality reports a customer may keep (code 510). */
  pqMaxReports: number;
}

/** Thrown when the environment is invalid; its message is one line meant for the operator. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment record into an {@link AppConfig} or throws a {@link ConfigError}. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.join(".")}: ${i.message}`)
      .join("; ");
    throw new ConfigError(`Invalid configuration: ${detail}`);
  }
  const c = parsed.data;
  const external = [c.OIDC_ISSUER, c.OIDC_CLIENT_ID, c.OIDC_AUDIENCE];
  if (external.some(Boolean) && !external.every(Boolean)) {
    throw new ConfigError(
      "Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE must be set together",
    );
  }
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
    logLevel: c.LOG_LEVEL,
    demoSeed: c.DEMO_SEED,
    webDist: c.WEB_DIST,
    accessTokenTtl: c.ACCESS_TOKEN_TTL,
    sessionInactivityMinutes: c.SESSION_INACTIVITY_MINUTES,
    rawLifetimeDays: c.RAW_LIFETIME_DAYS,
    duckdbMemoryLimit: c.DUCKDB_MEMORY_LIMIT,
    duckdbCheckpointThreshold: c.DUCKDB_CHECKPOINT_THRESHOLD,
    simulator: c.SIMULATOR,
    simulatorBackfillDays: c.SIMULATOR_BACKFILL_DAYS,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MAIL_FROM,
    vendorUrl: c.VENDOR_URL,
    e2eHooks: c.E2E_HOOKS,
    trustProxy: c.TRUST_PROXY,
    externalOidc: c.OIDC_ISSUER
      ? { issuer: c.OIDC_ISSUER, clientId: c.OIDC_CLIENT_ID!, audience: c.OIDC_AUDIENCE! }
      : undefined,
    mqtt: c.MQTT_URL
      ? { url: c.MQTT_URL, clientId: c.MQTT_CLIENT_ID ?? `gridwatch-${c.PORT}` }
      : undefined,
    apiClients: {
      maxClients: c.API_MAX_CLIENTS,
      tokensPerMonth: c.API_TOKENS_PER_MONTH,
      ratePerMinute: c.API_RATE_LIMIT_PER_MINUTE,
    },
    pqMaxReports: c.PQ_MAX_REPORTS,
  };
}
