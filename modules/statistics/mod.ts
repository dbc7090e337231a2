/**
 * @module
 * Visual statistics (vsm): time series, histograms and feeder comparisons over any period from
 * 10 minutes to 366 days, read from the streaming core's level that suits the period.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { PlatformModule } from "../../kernel/mod.ts";
import { topologyDirectory, type TopologyDirectoryDeps } from "./feeders.ts";
import { statisticsRoutes } from "./routes.ts";
import { StatisticsService } from "./service.ts";

export {
  type FeederDirectory,
  type FeederRef,
  STATISTICS_LIMITS,
  StatisticsService,
} from "./service.ts";
export type {
  CompareDto,
  HistogramDto,
  ParametersDto,
  SeriesDto,
  StatisticsLimits,
} from "./contract.ts";
export { topologyDirectory, type TopologyDirectoryDeps } from "./feeders.ts";

/** Builds the visual statistics module (/vsm) over the DuckDB query connection. */
export function statisticsModule(
  deps: TopologyDirectoryDeps & { analytics: DuckDBConnection },
): PlatformModule {
  const service = new StatisticsService(deps.analytics, topologyDirectory(deps));
  return { name: "statistics", api: [{ prefix: "/vsm", routes: statisticsRoutes(service) }] };
}
