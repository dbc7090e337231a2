/**
 * @module
 * API clients (acm) and the external_v1 API: the customer's API clients and their secrets, the
 * client credentials grant at `/oidc/token` with its monthly quota, and `/external/v1` with its
 * own authentication (client tokens only), scopes, rate limits, audit log and OpenAPI document.
 */
import { Hono } from "hono";
import type { AppEnv, Db, Logger, PlatformModule, TenantDirectory } from "../../kernel/mod.ts";
import type { ClientTokenKeys } from "../identity/mod.ts";
import { DEFAULT_LIMITS } from "./contract.ts";
import { acmRoutes } from "./routes.ts";
import { ApiClientsService, type ApiLimits } from "./service.ts";
import { clientCredentialsGrant } from "./token_endpoint.ts";

export type { ApiClientDto, ApiClientListDto, Permission, Scope } from "./contract.ts";
export { ApiClientsService, type ApiLimits } from "./service.ts";
export { CLIENT_TOKEN_TTL } from "./token_endpoint.ts";

/** What the API clients module needs from the composition root. */
export interface ApiClientsDeps {
  db: Db;
  logger: Logger;
  publicUrl: string;
  /** Signs and checks client tokens (identity). */
  tokens: ClientTokenKeys;
  /** Where the external API finds a client's customer. */
  tenants: TenantDirectory;
  /** API_MAX_CLIENTS and API_TOKENS_PER_MONTH (spec 9). */
  limits?: ApiLimits;
  /** Calls per client and minute on /external (API_RATE_LIMIT_PER_MINUTE). */
  ratePerMinute?: number;
}

/** The module assembled; `service` is what tests drive. */
export interface ApiClientsModule extends PlatformModule {
  service: ApiClientsService;
}

/**
 * Builds the module. It must come before identity in main.ts's module list: its public
 * `/oidc/token` middleware answers client credentials before the provider's proxy sees them.
 */
export function apiClientsModule(deps: ApiClientsDeps): ApiClientsModule {
  const limits = deps.limits ?? { ...DEFAULT_LIMITS };
  const service = new ApiClientsService(deps.db, limits, `${deps.publicUrl}/oidc/token`);
  const token = new Hono<AppEnv>().use("/oidc/token", clientCredentialsGrant(service, deps.tokens));
  return {
    name: "api_clients",
    service,
    api: [{ prefix: "/acm", routes: acmRoutes(service) }],
    public: [{ prefix: "/", routes: token }],
    bodyLimits: [{ path: /^\/oidc\/token$/, bytes: 16 * 1024 }],
  };
}
