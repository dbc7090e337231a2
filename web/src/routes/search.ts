/** Search-parameter schemas and guards shared by route files. */
import { defaultStringifySearch, redirect } from "@tanstack/react-router";
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
  const { search, changed } = ensureVoltage(location.search);
  if (!changed) return;
  const hash = location.hash ? `#${location.hash}` : "";
  throw redirect({
    href: `${location.pathname}${defaultStringifySearch(search)}${hash}`,
    replace: true,
  });
}
