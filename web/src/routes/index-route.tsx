import { createRoute, redirect } from "@tanstack/react-router";
import { accessContextAtom, sessionAtom } from "../lib/session-atoms.ts";
import { resolveStartPage } from "../lib/start-page.ts";
import { rootRoute } from "./root.tsx";

/**
 * `/` redirects to the stored start page, else the start_page claim, else the default; a page
 * that would not open for this user (not built yet, or refused) is skipped.
 */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: ({ context }) => {
    const session = context.store.get(sessionAtom);
    const ctx = context.store.get(accessContextAtom) ?? undefined;
    const href = session
      ? resolveStartPage({
        stored: session.user.start_page,
        claim: session.claims.startPage,
        fallback: session.config.defaultStartPage,
        ctx,
      })
      : "/500?type=api";
    throw redirect({ href, replace: true });
  },
});
