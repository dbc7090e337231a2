/**
 * Map colours of power quality: a node's EN 50160 verdict on the compliance map, and the depth
 * of a node's event on a grid event's map. Pure, free of maplibre so tests can import it.
 */
import type { MapState } from "../../map/map-types.ts";
import type { ComplianceVerdict } from "../../../../modules/power_quality/auto/contract.ts";

/** The map colour of a verdict: passed ok, not passed critical, not evaluable unknown. */
export function verdictState(passed: boolean | null): MapState {
  return passed === true ? "ok" : passed === false ? "critical" : "unknown";
}

/** Whether a node has the filtered verdict. */
export function hasVerdict(passed: boolean | null, verdict: ComplianceVerdict): boolean {
  if (verdict === "ALL") return true;
  if (verdict === "PASSED") return passed === true;
  if (verdict === "NOT_PASSED") return passed === false;
  return passed === null;
}

/** Depth (% of Uref) from which a node's event is drawn critical. */
export const DEEP_PCT = 40;

/** The map colour of an event's depth: warning below 40 %, critical from 40 %, else unknown. */
export function depthState(depth: number | null): MapState {
  return depth === null ? "unknown" : depth >= DEEP_PCT ? "critical" : "warning";
}
