import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /api-settings: Settings of the external API clients; hes:api-clients admins only. */
export const apiSettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "api-settings",
  staticData: { moduleId: "api-settings" },
  component: lazyRouteComponent(
    () => import("../features/api-settings/api-settings-page.tsx"),
    "ApiSettingsPage",
  ),
});
