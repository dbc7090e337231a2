/**
 * @module
 * Visual statistics (vsm): time series, histograms and feeder comparisons over any period from
 * 10 minutes to 366 days, read from the streaming core's level that suits the period.
 */
export {
  type CompareDto,
  type FeederDirectory,
  type FeederRef,
  type HistogramDto,
  type ParametersDto,
  type SeriesDto,
  STATISTICS_LIMITS,
  type StatisticsLimits,
  StatisticsService,
} from "./service.ts";
export { topologyDirectory, type TopologyDirectoryDeps } from "./feeders.ts";
export { statisticsRoutes } from "./routes.ts";
