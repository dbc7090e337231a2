/**
 * The `voltage` query parameter of spec 2.3: `lv` or `mv`, added as `lv` when missing or
 * invalid, kept when the toggle changes it.
 */

/** The two voltage levels a page can show. */
export type Voltage = "lv" | "mv";

/** All voltage levels, low first. */
export const VOLTAGES: readonly Voltage[] = ["lv", "mv"];

/** The level used when the URL has none or an invalid one. */
export const DEFAULT_VOLTAGE: Voltage = "lv";

/** True when `value` is a valid voltage level. */
export function isVoltage(value: unknown): value is Voltage {
  return value === "lv" || value === "mv";
}

/** The voltage a search object asks for, or the default when missing or invalid. */
export function voltageOf(search: { voltage?: unknown }): Voltage {
  return isVoltage(search.voltage) ? search.voltage : DEFAULT_VOLTAGE;
}

/**
 * Returns the search object with a valid `voltage`, and whether it had to change. Other
 * parameters are kept untouched so a redirect does not lose filters.
 */
export function ensureVoltage<T extends { voltage?: unknown }>(
  search: T,
): { search: T & { voltage: Voltage }; changed: boolean } {
  if (isVoltage(search.voltage)) {
    return { search: search as T & { voltage: Voltage }, changed: false };
  }
  return { search: { ...search, voltage: DEFAULT_VOLTAGE }, changed: true };
}

/** The search object after the toggle picked `voltage`; other parameters are kept. */
export function withVoltage<T extends object>(
  search: T,
  voltage: Voltage,
): T & { voltage: Voltage } {
  return { ...search, voltage };
}

/** The search to carry to another voltage page: the current level when valid, else none. */
export function carriedVoltage(search: { voltage?: unknown }): { voltage?: Voltage } {
  return isVoltage(search.voltage) ? { voltage: search.voltage } : {};
}
