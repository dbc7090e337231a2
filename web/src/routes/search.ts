/** Search-parameter schemas and guards shared by route files. */
import { defaultStringifySearch, redirect } from "@tanstack/react-router";
import * as z from "zod/mini";
import { canAccess } from "../lib/access.ts";
import { moduleOfPath } from "../lib/modules.ts";
import { accessContextAtom } from "../lib/session-atoms.ts";
import { ensureVoltage } from "../lib/voltage.ts";
import type { RouterContext } from "./root.tsx";

/**
 * `?voltage=lv|mv` (spec 2.3); an invalid value parses as missing and is then redirected.
 * Loose, so parameters of the screens (node, period ...) survive the voltage toggle.
 */
export const voltageSearch = z.looseObject({
  voltage: z.catch(z.optional(z.enum(["lv", "mv"])), undefined),
});

/** An optional text parameter; anything else parses as missing. */
export const searchText = z.catch(z.optional(z.string()), undefined);

/** `?type=api` of the error pages. */
export const errorPageSearch = z.object({
  type: z.catch(z.optional(z.enum(["api"])), undefined),
});

/**
 * beforeLoad of the voltage routes: adds `voltage=lv` to the URL when it is missing or
 * invalid, keeping the other parameters and the hash. A screen the access guard refuses keeps
 * the URL as typed: the 403 page shows no voltage and changes nothing.
 */
export function requireVoltage({
  location,
  context,
}: {
  location: { pathname: string; search: object; hash: string };
  context?: RouterContext;
}): void {
  const { search, changed } = ensureVoltage(location.search);
  if (!changed) return;
  const access = context?.store.get(accessContextAtom);
  const module = moduleOfPath(location.pathname);
  if (access && module && !canAccess(module.access, access, location)) return;
  const hash = location.hash ? `#${location.hash}` : "";
  throw redirect({
    href: `${location.pathname}${defaultStringifySearch(search)}${hash}`,
    replace: true,
  });
}
