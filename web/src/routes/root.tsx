import { createRootRouteWithContext } from "@tanstack/react-router";
import { RootLayout } from "../app/root-layout.tsx";
import type { AppStore } from "../app/store.ts";
import { NotFoundPage } from "../features/errors/not-found-page.tsx";

/** What every route can read: the jotai store holding the session. */
export interface RouterContext {
  store: AppStore;
}

/** The root route: the shell layout; unknown paths render the not-found page inside it. */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: () => <NotFoundPage />,
});
