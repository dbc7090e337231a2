import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod/mini";
import { rootRoute } from "./root.tsx";
import { requireVoltage, searchText, voltageSearch } from "./search.ts";

/**
 * The screen's view in the URL: `state` filter, `q` search, the `node` open in the panel and
 * its history `period`. Values of the wrong type are dropped; the screen checks the lists.
 */
export const gridMonitoringSearch = z.extend(voltageSearch, {
  state: searchText,
  q: searchText,
  node: searchText,
  period: searchText,
});

/** /grid-monitoring: with the voltage switch and the Auto/Manual run mode. */
export const gridMonitoringRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "grid-monitoring",
  staticData: { moduleId: "grid-monitoring" },
  validateSearch: gridMonitoringSearch,
  beforeLoad: requireVoltage,
  component: lazyRouteComponent(
    () => import("../features/grid-monitoring/grid-monitoring-page.tsx"),
    "GridMonitoringPage",
  ),
});

/** /grid-monitoring-settings: grid monitoring admins only. */
export const gridMonitoringSettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "grid-monitoring-settings",
  staticData: { moduleId: "grid-monitoring-settings" },
  component: lazyRouteComponent(
    () => import("../features/grid-monitoring/grid-monitoring-settings-page.tsx"),
    "GridMonitoringSettingsPage",
  ),
});
