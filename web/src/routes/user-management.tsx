import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod/mini";
import { rootRoute } from "./root.tsx";
import { searchText } from "./search.ts";

/** `?search=&page=` of the user list; a page that is not a whole number from 1 reads as 1. */
const userListSearch = z.object({
  search: searchText,
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(1))), undefined),
});

/** /user-management: User Management; hes:um admins only. */
export const userManagementRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "user-management",
  staticData: { moduleId: "user-management" },
  validateSearch: userListSearch,
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
