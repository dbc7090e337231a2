/** Inactivity detection of spec 2.9: no input for the configured time shows the session dialog. */

/** DOM events that count as the user being active. */
export const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchstart"] as const;

/** True when the last input lies at least `limitMinutes` before `now` (a limit of 0 disables). */
export function isInactive(lastActivityMs: number, nowMs: number, limitMinutes: number): boolean {
  if (!(limitMinutes > 0)) return false;
  return nowMs - lastActivityMs >= limitMinutes * 60_000;
}

/**
 * Calls `onInactive` once each time the user has been idle for `limitMinutes`; returns a
 * function that stops watching. `checkEveryMs` bounds how late the dialog may appear.
 */
export function watchInactivity(
  target: Pick<Window, "addEventListener" | "removeEventListener">,
  limitMinutes: number,
  onInactive: () => void,
  checkEveryMs = 15_000,
  now: () => number = Date.now,
): () => void {
  let last = now();
  let fired = false;
  const touch = () => {
    last = now();
    fired = false;
  };
  for (const name of ACTIVITY_EVENTS) target.addEventListener(name, touch, { passive: true });
  const timer = setInterval(() => {
    if (!fired && isInactive(last, now(), limitMinutes)) {
      fired = true;
      onInactive();
    }
  }, checkEveryMs);
  return () => {
    clearInterval(timer);
    for (const name of ACTIVITY_EVENTS) target.removeEventListener(name, touch);
  };
}
