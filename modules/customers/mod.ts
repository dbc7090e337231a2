/**
 * @module
 * Customers (csm): the utilities served by this installation and their global settings
 * (company, formats, languages, grid, map, warning thresholds, module settings, logo).
 */
export { type CustomerDto, CustomersService } from "./service.ts";
export { customerRoutes } from "./routes.ts";
export type { NewCustomerRow } from "./schema.ts";
export type {
  CustomerSettingsDto,
  CustomerSettingsService,
  GridMonitoringSettingsDto,
} from "./settings_service.ts";
