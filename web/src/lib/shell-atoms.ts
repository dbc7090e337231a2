/** Shell state that pages may set: MV availability, run mode and theme. */
import { atom, useSetAtom } from "jotai";
import { useEffect } from "react";
import { readThemePreference, type ThemePreference } from "./theme.ts";

/** False when the current page says the node has no medium voltage values. */
export const mvAvailableAtom = atom(true);

/** The grid-monitoring run mode shown by the Auto/Manual switch. */
export type RunMode = "auto" | "manual";
export const runModeAtom = atom<RunMode>("auto");

/** The theme the user picked in the user menu. */
export const themePreferenceAtom = atom<ThemePreference>(readThemePreference());

/**
 * Lets a page tell the header whether medium voltage values exist; the flag returns to
 * `true` when the page unmounts so another page does not inherit it.
 */
export function useMvAvailability(available: boolean): void {
  const setAvailable = useSetAtom(mvAvailableAtom);
  useEffect(() => {
    setAvailable(available);
  }, [available, setAvailable]);
  useEffect(() => () => setAvailable(true), [setAvailable]);
}
