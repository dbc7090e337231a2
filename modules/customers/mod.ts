/**
 * @module
 * Customers (csm): the utilities served by this installation and their global settings
 * (company, formats, languages, grid, map, warning thresholds, module settings, logo), and the
 * cached customer directory the tenant middleware reads.
 */
import type { Db, PlatformModule } from "../../kernel/mod.ts";
import { MAX_LOGO_BYTES } from "./logo_image.ts";
import { customerRoutes, MULTIPART_SLACK } from "./routes.ts";
import { CustomersService } from "./service.ts";

export { CustomersService } from "./service.ts";
export type { CustomerDto, CustomerSettingsDto, GridMonitoringSettingsDto } from "./contract.ts";
export type { NewCustomerRow } from "./schema.ts";
export type { CustomerSettingsService } from "./settings_service.ts";
export type { TenantCache } from "./tenants.ts";

/** The customers module: the facade other modules read and the /csm routes. */
export interface CustomersModule extends PlatformModule {
  service: CustomersService;
}

/** Builds the customers module. */
export function customersModule(deps: { db: Db }): CustomersModule {
  const service = new CustomersService(deps.db);
  return {
    name: "customers",
    service,
    api: [{ prefix: "/csm", routes: customerRoutes(service) }],
    bodyLimits: [{
      path: /^\/csm\/customers\/[^/]+\/logo$/,
      bytes: MAX_LOGO_BYTES + MULTIPART_SLACK,
    }],
  };
}
