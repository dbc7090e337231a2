import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /api-doc: REST API documentation; open to every signed-in user. */
export const apiDocRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "api-doc",
  staticData: { moduleId: "api-doc" },
  component: lazyRouteComponent(
    () => import("../features/api-doc/api-doc-page.tsx"),
    "ApiDocPage",
  ),
});
