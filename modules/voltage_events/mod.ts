/**
 * @module
 * Power-quality events (pqe): the voltage events the cells record (dips, swells, RVC,
 * interruptions, MSV), listed per node or for the whole grid with their EN 50160 table cells,
 * RMS traces and magnitude-duration points, and the recordings the platform asks the cells for.
 */
import type { PlatformModule } from "../../kernel/mod.ts";
import { voltageEventsRoutes } from "./routes.ts";
import { type VoltageEventsDeps, VoltageEventsService } from "./service.ts";

export type { EventDetailDto, EventPageDto, EventWorksDto } from "./contract.ts";
export { VoltageEventsService } from "./service.ts";

/** What the module needs from the composition root. */
export type { VoltageEventsDeps };

/** The module assembled. */
export interface VoltageEventsModule extends PlatformModule {
  service: VoltageEventsService;
}

/** Builds the power-quality events module (/pqe). */
export function voltageEventsModule(deps: VoltageEventsDeps): VoltageEventsModule {
  const service = new VoltageEventsService(deps);
  return {
    name: "voltage_events",
    service,
    api: [{ prefix: "/pqe", routes: voltageEventsRoutes(service) }],
  };
}
