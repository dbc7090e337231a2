/** Who may change cells, and the timing helpers of the cells screens (spec 9). */
import { useEffect, useState } from "react";
import { isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { BUTTON_LOADING_DELAY_MS } from "./cells-rules.ts";

const SETUP_KEY = "hes:infrastructure-setup";

/** Admins of the infrastructure setup (and super-admins) change cells. */
export function useCanWrite(): boolean {
  const { claims } = useSession();
  return isAdminOf(claims.appsRoles, SETUP_KEY) || claims.role === "super-admin";
}

/** `value` once it has not changed for `delay` ms. */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** True once `active` has lasted `delay` ms (button loading delay of spec 9). */
export function useDelayed(active: boolean, delay = BUTTON_LOADING_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) return setShown(false);
    const timer = window.setTimeout(() => setShown(true), delay);
    return () => window.clearTimeout(timer);
  }, [active, delay]);
  return shown;
}
