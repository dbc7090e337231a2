import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /io-monitoring: IO Monitoring; only when the customer's applications list it. */
export const ioMonitoringRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "io-monitoring",
  staticData: { moduleId: "io-monitoring" },
  component: lazyRouteComponent(
    () => import("../features/io-monitoring/io-monitoring-page.tsx"),
    "IoMonitoringPage",
  ),
});
