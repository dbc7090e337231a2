/**
 * Rules of custom monitoring requests (spec 8.2 codes 322, 323, 330, 331, 333): which request may
 * start next to the ones already running, and what an automatic trigger does when it fires.
 * Pure: the caller reads the running requests and counts inside its transaction and passes them.
 */
import { AppError } from "../../kernel/mod.ts";

/** How a custom monitoring request started (its durations: modules/monitoring/contract.ts). */
export type RequestKind = "MANUAL" | "AUTOMATIC";

/** Counted limits; both are configurable per installation. */
export interface CustomMonitoringLimits {
  /** Requests of one customer running at the same time (322). */
  maxRunning: number;
  /** Requests started on one cell in a calendar month (323). */
  maxMonthlyPerCell: number;
}

export const DEFAULT_CUSTOM_LIMITS: Readonly<CustomMonitoringLimits> = Object.freeze({
  maxRunning: 5,
  maxMonthlyPerCell: 100,
});

/** A request that runs at the time of the check. */
export interface RunningRequest {
  nodeId: string;
  kind: RequestKind;
  /** No end: runs until stopped. */
  infinite: boolean;
  /** The trigger that started it (automatic requests). */
  triggerId: string | null;
}

/** What a start is checked against. */
export interface StartCheck {
  nodeId: string;
  /** Every request of the customer running now. */
  running: readonly RunningRequest[];
  /** Requests started on the node's cell since the start of the month. */
  monthlyForCell: number;
  limits: CustomMonitoringLimits;
}

/**
 * Throws the AppError of the first rule a new request on `nodeId` breaks. The node's own
 * conflicts come first because they tell the user what to do on that node: 333 (a request
 * without end runs there), 331 (a request runs there), then the counted limits 322 and 323.
 */
export function checkStart(c: StartCheck): void {
  const onNode = c.running.filter((r) => r.nodeId === c.nodeId);
  if (onNode.some((r) => r.infinite)) throw new AppError(333);
  if (onNode.length) throw new AppError(331);
  if (c.running.length >= c.limits.maxRunning) {
    throw new AppError(322, { limit: c.limits.maxRunning });
  }
  if (c.monthlyForCell >= c.limits.maxMonthlyPerCell) {
    throw new AppError(323, { limit: c.limits.maxMonthlyPerCell });
  }
}

/** Throws 330 when an enabled automatic trigger already covers the same node (or customer). */
export function checkTriggerEnable(enabledInScope: number): void {
  if (enabledInScope > 0) throw new AppError(330);
}

/** What a trigger fire leads to. */
export type TriggerOutcome =
  | { status: "STARTED" }
  /** Another request runs on the node, or a limit is reached; `code` says which. */
  | { status: "FAILURE"; code: number }
  /** The trigger's own request still records the node: nothing to start, nothing to tell. */
  | { status: "IGNORED" };

/** The outcome of a fire of `triggerId` on `c.nodeId`. */
export function triggerOutcome(triggerId: string, c: StartCheck): TriggerOutcome {
  if (c.running.some((r) => r.nodeId === c.nodeId && r.triggerId === triggerId)) {
    return { status: "IGNORED" };
  }
  try {
    checkStart(c);
    return { status: "STARTED" };
  } catch (error) {
    if (error instanceof AppError && error.entry.code !== undefined) {
      return { status: "FAILURE", code: error.entry.code };
    }
    throw error;
  }
}

/** Start (ms) of the UTC calendar month that holds `now`: the monthly limit counts from it. */
export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** End (ms) of a request started at `startedAt`, or null for a request without end. */
export function endOf(startedAt: number, durationMin: number | null): number | null {
  return durationMin === null ? null : startedAt + durationMin * 60_000;
}

/** Whether a request runs at `now`: not stopped, and its end (if any) still ahead. */
export function isRunning(
  r: { endsAt: number | null; stoppedAt: number | null },
  now: number,
): boolean {
  return r.stoppedAt === null && (r.endsAt === null || r.endsAt > now);
}
