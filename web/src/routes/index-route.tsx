import { createRoute, redirect } from "@tanstack/react-router";
import { sessionAtom } from "../lib/session-atoms.ts";
import { resolveStartPage } from "../lib/start-page.ts";
import { rootRoute } from "./root.tsx";

/** `/` redirects to the stored start page, else the start_page claim, else the default. */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: ({ context }) => {
    const session = context.store.get(sessionAtom);
    const href = session
      ? resolveStartPage({
        stored: session.user.start_page,
        claim: session.claims.startPage,
        fallback: session.config.defaultStartPage,
      })
      : "/500?type=api";
    throw redirect({ href, replace: true });
  },
});
