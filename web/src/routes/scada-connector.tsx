import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /scada-connector: SCADA Connector. */
export const scadaConnectorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "scada-connector",
  staticData: { moduleId: "scada-connector" },
  component: lazyRouteComponent(
    () => import("../features/scada-connector/scada-connector-page.tsx"),
    "ScadaConnectorPage",
  ),
});
