/**
 * @module
 * API clients (acm) and the external_v1 API: the customer's API clients and their secrets, the
 * client credentials grant at `/oidc/token` with its monthly quota, and `/external/v1` with its
 * own authentication (client tokens only), scopes, rate limits, audit log and OpenAPI document.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { Hono } from "hono";
import type { MeasurementStore } from "../../core/mod.ts";
import type {
  AppEnv,
  Db,
  EventBus,
  Logger,
  PlatformModule,
  TenantDirectory,
} from "../../kernel/mod.ts";
import { type CellsService, GridSetupService } from "../grid/mod.ts";
import type { ClientTokenKeys } from "../identity/mod.ts";
import { DEFAULT_LIMITS } from "./contract.ts";
import { DmReader } from "./external/dm.ts";
import { externalOpenApi } from "./external/openapi.ts";
import { externalApp, externalV1Routes } from "./external/routes.ts";
import type { PqDeps } from "./external/pq.ts";
import { acmRoutes } from "./routes.ts";
import { ApiClientsService, type ApiLimits } from "./service.ts";
import { clientCredentialsGrant } from "./token_endpoint.ts";

export type { ApiClientDto, ApiClientListDto, Permission, Scope } from "./contract.ts";
export { ApiClientsService, type ApiLimits } from "./service.ts";
export { CLIENT_TOKEN_TTL } from "./token_endpoint.ts";
export { RateLimiter } from "./external/auth.ts";

/** What the API clients module needs from the composition root. */
export interface ApiClientsDeps {
  db: Db;
  logger: Logger;
  publicUrl: string;
  /** The product's version (the OpenAPI document's `info.version`). */
  version: string;
  /** Signs and checks client tokens (identity). */
  tokens: ClientTokenKeys;
  /** Where the external API finds a client's customer. */
  tenants: TenantDirectory;
  /** The grid's cells (gsm placement, fm, the cell measuring a feeder). */
  cells: CellsService;
  /** The streaming core's series and newest values (dm). */
  store: MeasurementStore;
  /** RAW_LIFETIME_DAYS: older third-party measurements are refused as a cell's. */
  rawLifetimeDays: number;
  /** Receives the grid's events of gsm writes (as the screens' writes publish them). */
  bus: EventBus;
  /** The DuckDB connection for queries (dm). */
  analytics: Pick<DuckDBConnection, "runAndReadAll">;
  /** API_MAX_CLIENTS and API_TOKENS_PER_MONTH (spec 9). */
  limits?: ApiLimits;
  /** Calls per client and minute on /external (API_RATE_LIMIT_PER_MINUTE). */
  ratePerMinute?: number;
  /** pq: the power-quality reports' and voltage events' facades (their modules' mod.ts). */
  pq: PqDeps;
}

/** The module assembled; `service` is what tests drive. */
export interface ApiClientsModule extends PlatformModule {
  service: ApiClientsService;
  /** The external_v1 OpenAPI document (served at /external/v1/openapi.json). */
  openApi(): unknown;
}

/**
 * Builds the module. It must come before identity in main.ts's module list: its public
 * `/oidc/token` middleware answers client credentials before the provider's proxy sees them.
 */
export function apiClientsModule(deps: ApiClientsDeps): ApiClientsModule {
  const limits = deps.limits ?? { ...DEFAULT_LIMITS };
  const tokenUrl = `${deps.publicUrl}/oidc/token`;
  const service = new ApiClientsService(deps.db, limits, tokenUrl);
  const token = new Hono<AppEnv>().use("/oidc/token", clientCredentialsGrant(service, deps.tokens));
  const v1 = externalV1Routes({
    db: deps.db,
    dm: new DmReader(deps),
    store: deps.store,
    rawLifetimeDays: deps.rawLifetimeDays,
    setup: new GridSetupService(deps.db, deps.bus),
    cells: deps.cells,
    keys: deps.tokens,
    service,
    tenants: deps.tenants,
    ratePerMinute: deps.ratePerMinute ?? 600,
    pq: deps.pq,
  });
  let document: unknown;
  const openApi = () =>
    document ??= externalOpenApi(v1, {
      tokenUrl,
      serverUrl: `${deps.publicUrl}/external/v1`,
      version: deps.version,
    });
  return {
    name: "api_clients",
    service,
    openApi,
    api: [{ prefix: "/acm", routes: acmRoutes(service) }],
    public: [
      { prefix: "/", routes: token },
      { prefix: "/external", routes: externalApp(v1, openApi) },
    ],
    bodyLimits: [{ path: /^\/oidc\/token$/, bytes: 16 * 1024 }],
  };
}
