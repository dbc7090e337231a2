import { createRouter } from "@tanstack/react-router";
import { ServerErrorPage } from "../features/errors/server-error-page.tsx";
import { routeTree } from "../routes/route-tree.ts";
import { Loader } from "../ui/loader.tsx";
import type { AppStore } from "./store.ts";

/** Creates the router once the session is known (the `/` redirect reads it). */
export function createAppRouter(store: AppStore) {
  return createRouter({
    routeTree,
    context: { store },
    defaultPreload: "intent",
    // Spinner only after 400 ms (spec 4 and 9), and no minimum display time.
    defaultPendingMs: 400,
    defaultPendingMinMs: 0,
    defaultPendingComponent: () => <Loader delay={0} className="flex-1" />,
    defaultErrorComponent: () => <ServerErrorPage />,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
