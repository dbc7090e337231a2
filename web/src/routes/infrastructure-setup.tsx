import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /infrastructure-setup: Infrastructure Setup; the #io-configuration hash is guarded separately (hes:io-configuration). */
export const infrastructureSetupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "infrastructure-setup",
  staticData: { moduleId: "infrastructure-setup" },
  component: lazyRouteComponent(
    () => import("../features/infrastructure-setup/infrastructure-setup-page.tsx"),
    "InfrastructureSetupPage",
  ),
});
