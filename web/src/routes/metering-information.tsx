import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";
import { requireVoltage, voltageSearch } from "./search.ts";

/** /metering-information: Metering Information, with the voltage switch. */
export const meteringInformationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "metering-information",
  staticData: { moduleId: "metering-information" },
  validateSearch: voltageSearch,
  beforeLoad: requireVoltage,
  component: lazyRouteComponent(
    () => import("../features/metering-information/metering-information-page.tsx"),
    "MeteringInformationPage",
  ),
});
