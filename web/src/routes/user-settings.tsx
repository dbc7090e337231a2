import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /user-settings: My Profile & Settings (anchor #notification-settings); open to every signed-in user. */
export const userSettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "user-settings",
  staticData: { moduleId: "user-settings" },
  component: lazyRouteComponent(
    () => import("../features/user-settings/user-settings-page.tsx"),
    "UserSettingsPage",
  ),
});
