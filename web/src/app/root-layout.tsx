import { Outlet } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { ServerErrorPage } from "../features/errors/server-error-page.tsx";
import { useRouteInfo } from "../lib/route-info.ts";
import { sessionAtom } from "../lib/session-atoms.ts";
import { AppShell } from "./app-shell.tsx";

/**
 * The root route's component. With a session it is the full shell; without one (a foundation
 * call failed) only the error pages render, on a bare page.
 */
export function RootLayout() {
  const session = useAtomValue(sessionAtom);
  const { moduleId } = useRouteInfo();
  if (session) return <AppShell />;
  return (
    <div className="flex min-h-screen flex-col bg-background">
      {moduleId ? <ServerErrorPage api /> : <Outlet />}
    </div>
  );
}
