/** What the shell reads from the matched routes: the module and the section of the screen. */
import { useMatches } from "@tanstack/react-router";
import type { ModuleId } from "./modules.ts";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The module the route belongs to: title, access guard, help page, header switches. */
    moduleId?: ModuleId;
    /** A section inside the module (e.g. `compare`): subtitle and help anchor. */
    section?: string;
  }
}

/** Module and section of the deepest matched route that names them. */
export interface RouteInfo {
  moduleId: ModuleId | undefined;
  section: string | undefined;
}

/** The module and section of the current location. */
export function useRouteInfo(): RouteInfo {
  const matches = useMatches();
  let moduleId: ModuleId | undefined;
  let section: string | undefined;
  for (const match of matches) {
    if (match.staticData.moduleId) moduleId = match.staticData.moduleId;
    if (match.staticData.section) section = match.staticData.section;
  }
  return { moduleId, section };
}
