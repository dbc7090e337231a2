import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
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
