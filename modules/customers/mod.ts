/**
 * @module
 * Customers (csm): the utilities served by this installation and their settings.
 */
export { type CustomerDto, CustomersService } from "./service.ts";
export { customerRoutes } from "./routes.ts";
export type { NewCustomerRow } from "./schema.ts";
