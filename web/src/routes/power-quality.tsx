import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /power-quality: redirects to /power-quality/reports (anchors #auto-analyses, #reports, #events-downloaded). */
export const powerQualityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "power-quality",
  staticData: { moduleId: "power-quality" },
});

export const powerQualityIndexRoute = createRoute({
  getParentRoute: () => powerQualityRoute,
  path: "/",
  beforeLoad: ({ location }) => {
    throw redirect({
      to: "/power-quality/reports",
      hash: location.hash || undefined,
      replace: true,
    });
  },
});

/** /power-quality/reports: EN50160 or custom reports and auto-analyses. */
export const reportsRoute = createRoute({
  getParentRoute: () => powerQualityRoute,
  path: "reports",
  staticData: { section: "reports" },
  component: lazyRouteComponent(
    () => import("../features/power-quality/reports-page.tsx"),
    "ReportsPage",
  ),
});

/** /power-quality/events: voltage events. */
export const eventsRoute = createRoute({
  getParentRoute: () => powerQualityRoute,
  path: "events",
  staticData: { section: "events" },
  component: lazyRouteComponent(
    () => import("../features/power-quality/events-page.tsx"),
    "EventsPage",
  ),
});

export const powerQualityTree = powerQualityRoute.addChildren([
  powerQualityIndexRoute,
  reportsRoute,
  eventsRoute,
]);
