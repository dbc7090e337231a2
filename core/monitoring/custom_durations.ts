/**
 * Durations of custom monitoring requests (spec 9 "Custom monitoring durations"): the lists a
 * manual request and an automatic trigger may choose from, in minutes.
 */

/** How a custom monitoring request started. */
export type RequestKind = "MANUAL" | "AUTOMATIC";

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);

/** Automatic: 1 to 5, then 10 to 60 step 10. */
export const AUTOMATIC_DURATIONS_MIN: readonly number[] = Object.freeze([
  ...range(1, 5, 1),
  ...range(10, 60, 10),
]);

/** Manual: the automatic list, then 120 to 1440 step 60. */
export const MANUAL_DURATIONS_MIN: readonly number[] = Object.freeze([
  ...AUTOMATIC_DURATIONS_MIN,
  ...range(120, 1440, 60),
]);

const MANUAL = new Set(MANUAL_DURATIONS_MIN);
const AUTOMATIC = new Set(AUTOMATIC_DURATIONS_MIN);

/** Whether `minutes` is in the list of `kind` (a request without end is not a duration). */
export function isAllowedDuration(kind: RequestKind, minutes: number): boolean {
  return (kind === "MANUAL" ? MANUAL : AUTOMATIC).has(minutes);
}
