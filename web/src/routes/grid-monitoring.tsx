import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";
import { requireVoltage, voltageSearch } from "./search.ts";

/** /grid-monitoring: with the voltage switch and the Auto/Manual run mode. */
export const gridMonitoringRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "grid-monitoring",
  staticData: { moduleId: "grid-monitoring" },
  validateSearch: voltageSearch,
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
