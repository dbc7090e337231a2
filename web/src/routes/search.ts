/** Search-parameter schemas and guards shared by route files. */
import { redirect } from "@tanstack/react-router";
import * as z from "zod/mini";
import { ensureVoltage } from "../lib/voltage.ts";

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
 * invalid, keeping the other parameters and the hash.
 */
export function requireVoltage({
  location,
}: {
  location: { pathname: string; search: object; hash: string };
}): void {
  const { search, changed } = ensureVoltage(location.search as Record<string, unknown>);
  if (!changed) return;
  throw redirect({
    to: location.pathname,
    search,
    hash: location.hash || undefined,
    replace: true,
  } as never);
}
