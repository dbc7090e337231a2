import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod/mini";
import { rootRoute } from "./root.tsx";

/**
 * `?view=list|map&item=<kind>:<id>` of the grid structure tab; loose, so the other tabs can keep
 * parameters of their own.
 */
export const infrastructureSetupSearch = z.looseObject({
  view: z.catch(z.optional(z.enum(["list", "map"])), undefined),
  item: z.catch(z.optional(z.string()), undefined),
});

/** /infrastructure-setup: Infrastructure Setup; the #io-configuration hash is guarded separately (hes:io-configuration). */
export const infrastructureSetupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "infrastructure-setup",
  staticData: { moduleId: "infrastructure-setup" },
  validateSearch: infrastructureSetupSearch,
  component: lazyRouteComponent(
    () => import("../features/infrastructure-setup/infrastructure-setup-page.tsx"),
    "InfrastructureSetupPage",
  ),
});
