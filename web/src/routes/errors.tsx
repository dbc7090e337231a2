import { createRoute } from "@tanstack/react-router";
import { ForbiddenPage } from "../features/errors/forbidden-page.tsx";
import { NotFoundPage } from "../features/errors/not-found-page.tsx";
import { ServerErrorPage } from "../features/errors/server-error-page.tsx";
import { ServiceUnavailablePage } from "../features/errors/service-unavailable-page.tsx";
import { rootRoute } from "./root.tsx";
import { errorPageSearch } from "./search.ts";

/** /500, with a Reload button; `?type=api` after a failed call. */
export const serverErrorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "500",
  validateSearch: errorPageSearch,
  component: function ServerErrorRoute() {
    const { type } = serverErrorRoute.useSearch();
    return <ServerErrorPage api={type === "api"} />;
  },
});

/** /403, page or backend resource (`?type=api`). */
export const forbiddenRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "403",
  validateSearch: errorPageSearch,
  component: function ForbiddenRoute() {
    const { type } = forbiddenRoute.useSearch();
    return <ForbiddenPage api={type === "api"} />;
  },
});

/** /404, 'Page Not Found' or 'Resource Not Found' (`?type=api`). */
export const notFoundRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "404",
  validateSearch: errorPageSearch,
  component: function NotFoundRoute() {
    const { type } = notFoundRoute.useSearch();
    return <NotFoundPage api={type === "api"} />;
  },
});

/** /503, Service Unavailable. */
export const serviceUnavailableRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "503",
  component: ServiceUnavailablePage,
});

export const errorRoutes = [
  serverErrorRoute,
  forbiddenRoute,
  notFoundRoute,
  serviceUnavailableRoute,
];
