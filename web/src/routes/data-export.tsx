import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /data-export: Data Export; the default start page key. */
export const dataExportRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "data-export",
  staticData: { moduleId: "data-export" },
  component: lazyRouteComponent(
    () => import("../features/data-export/data-export-page.tsx"),
    "DataExportPage",
  ),
});
