import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod/mini";
import { rootRoute } from "./root.tsx";
import { searchText } from "./search.ts";

/** `?ew=<electrical work key>&period=24h|7d|30d&q=<search>`; the screen checks the period. */
const ioMonitoringSearch = z.object({ ew: searchText, period: searchText, q: searchText });

/** /io-monitoring: IO Monitoring; only when the customer's applications list it. */
export const ioMonitoringRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "io-monitoring",
  staticData: { moduleId: "io-monitoring" },
  validateSearch: ioMonitoringSearch,
  component: lazyRouteComponent(
    () => import("../features/io-monitoring/io-monitoring-page.tsx"),
    "IoMonitoringPage",
  ),
});
