import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import * as z from "zod/mini";
import { carriedVoltage } from "../lib/voltage.ts";
import { rootRoute } from "./root.tsx";
import { requireVoltage, voltageSearch } from "./search.ts";

/** /visual-statistics: redirects to /visual-statistics/statistics, keeping the voltage. */
export const visualStatisticsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "visual-statistics",
  staticData: { moduleId: "visual-statistics" },
  validateSearch: voltageSearch,
});

const text = z.catch(z.optional(z.string()), undefined);

/**
 * The selection of both screens lives in the URL (features/visual-statistics/selection.ts reads
 * it): feeders and parameters as comma lists, chart type, phase, min/max, and either a quick
 * `range` or `from`/`to` ISO instants. Values of the wrong type are dropped, not refused.
 */
const selectionSearch = z.looseObject({
  feeders: text,
  parameters: text,
  parameter: text,
  chart: text,
  phase: text,
  minmax: z.catch(z.optional(z.boolean()), undefined),
  range: text,
  from: text,
  to: text,
});

export const visualStatisticsIndexRoute = createRoute({
  getParentRoute: () => visualStatisticsRoute,
  path: "/",
  beforeLoad: ({ location }) => {
    throw redirect({
      to: "/visual-statistics/statistics",
      search: carriedVoltage(location.search as Record<string, unknown>),
      replace: true,
    });
  },
});

/** /visual-statistics/statistics: with the voltage switch. */
export const statisticsRoute = createRoute({
  getParentRoute: () => visualStatisticsRoute,
  path: "statistics",
  staticData: { section: "statistics" },
  validateSearch: selectionSearch,
  beforeLoad: requireVoltage,
  component: lazyRouteComponent(
    () => import("../features/visual-statistics/statistics-page.tsx"),
    "StatisticsPage",
  ),
});

/** /visual-statistics/compare: with the voltage switch. */
export const compareRoute = createRoute({
  getParentRoute: () => visualStatisticsRoute,
  path: "compare",
  staticData: { section: "compare" },
  validateSearch: selectionSearch,
  beforeLoad: requireVoltage,
  component: lazyRouteComponent(
    () => import("../features/visual-statistics/compare-page.tsx"),
    "ComparePage",
  ),
});

export const visualStatisticsTree = visualStatisticsRoute.addChildren([
  visualStatisticsIndexRoute,
  statisticsRoute,
  compareRoute,
]);
