import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /user-management: User Management; hes:um admins only. */
export const userManagementRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "user-management",
  staticData: { moduleId: "user-management" },
  component: lazyRouteComponent(
    () => import("../features/user-management/user-management-page.tsx"),
    "UserManagementPage",
  ),
});

/** /user-management/:cid/:id: one user of a customer. */
export const userDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "user-management/$cid/$id",
  staticData: { moduleId: "user-management", section: "detail" },
  component: lazyRouteComponent(
    () => import("../features/user-management/user-detail-page.tsx"),
    "UserDetailPage",
  ),
});
