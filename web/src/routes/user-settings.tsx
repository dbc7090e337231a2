import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod/mini";
import { rootRoute } from "./root.tsx";

/** `?email-validation=done|invalid`: where the link of a validation mail lands. */
const userSettingsSearch = z.object({
  "email-validation": z.catch(z.optional(z.enum(["done", "invalid"])), undefined),
});

/** /user-settings: My Profile & Settings (anchor #notification-settings); open to every signed-in user. */
export const userSettingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "user-settings",
  staticData: { moduleId: "user-settings" },
  validateSearch: userSettingsSearch,
  component: lazyRouteComponent(
    () => import("../features/user-settings/user-settings-page.tsx"),
    "UserSettingsPage",
  ),
});
