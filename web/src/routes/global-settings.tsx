import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /global-settings: Global Settings (anchor #apps-settings); hes:cm admins only. */
export const globalSettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "global-settings",
  staticData: { moduleId: "global-settings" },
  component: lazyRouteComponent(
    () => import("../features/global-settings/global-settings-page.tsx"),
    "GlobalSettingsPage",
  ),
});
