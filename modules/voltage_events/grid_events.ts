/**
 * Time-correlated grid events: events of different cells that start within one second of the
 * first of them are one grid event (a fault upstream is seen by many cells at once). A grid event
 * is labelled MV ("likely from the MV side") when every node with a cell under one MV feeder group
 * saw it, else LOCAL. Pure: the service feeds it rows and the structure's groups.
 */

/** Events closer than this to a grid event's first event belong to it. */
export const CORRELATION_MS = 1_000;

/** What grouping reads of an event. */
export interface CorrelatedInput {
  key: string;
  cellId: string;
  nodeId: string;
  kind: string;
  startMs: number;
  depthPct: number | null;
}

/** A grid event: two or more cells' events within a second. */
export interface GridEvent<E extends CorrelatedInput> {
  startMs: number;
  events: E[];
  origin: "MV" | "LOCAL";
  /** The MV feeder group all of whose measured nodes saw it (MV only). */
  mvGroupId: string | null;
}

/**
 * Groups `events` (any order) into grid events, newest first. `mvGroups` maps an MV feeder group
 * id to the nodes with a cell under it. An event of a cell already in the group (a second dip of
 * the same fault) joins it without counting as another cell.
 */
export function correlate<E extends CorrelatedInput>(
  events: readonly E[],
  mvGroups: ReadonlyMap<string, ReadonlySet<string>>,
): GridEvent<E>[] {
  const sorted = [...events].sort((a, b) => a.startMs - b.startMs || a.key.localeCompare(b.key));
  const out: GridEvent<E>[] = [];
  let current: E[] = [];
  const close = () => {
    const cells = new Set(current.map((e) => e.cellId));
    if (cells.size >= 2) {
      const nodes = new Set(current.map((e) => e.nodeId));
      let mvGroupId: string | null = null;
      for (const [id, members] of mvGroups) {
        if (members.size >= 2 && [...members].every((n) => nodes.has(n))) {
          mvGroupId = id;
          break;
        }
      }
      out.push({
        startMs: current[0]!.startMs,
        events: current,
        origin: mvGroupId ? "MV" : "LOCAL",
        mvGroupId,
      });
    }
    current = [];
  };
  for (const e of sorted) {
    if (current.length && e.startMs - current[0]!.startMs > CORRELATION_MS) close();
    current.push(e);
  }
  if (current.length) close();
  return out.reverse();
}
