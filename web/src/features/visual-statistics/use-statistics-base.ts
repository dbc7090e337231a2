/**
 * What both screens load first: the grid (reshaped station groups) and the parameters with
 * their limits; it also tells the header whether Medium Voltage can be chosen.
 */
import { useNavigate } from "@tanstack/react-router";
import { useCallback, useMemo } from "react";
import { useMvAvailability } from "../../lib/shell-atoms.ts";
import { useAsync } from "../../lib/use-async.ts";
import type { Voltage } from "../../lib/voltage.ts";
import type { SelectionSearch } from "./selection.ts";
import { unitAt } from "./mv-units.ts";
import { feederIndex, panelTree } from "./structure.ts";
import { vsmApi } from "./vsm-api.ts";

export function useStatisticsBase(voltage: Voltage) {
  const structure = useAsync((signal) => vsmApi.structure(signal), []);
  const loaded = useAsync((signal) => vsmApi.parameters(signal), []);
  // At MV, voltages read in kV: the parameters' units say so too.
  const parameters = useMemo(
    () =>
      loaded.status === "success"
        ? {
          ...loaded,
          data: {
            ...loaded.data,
            parameters: loaded.data.parameters.map((p) => ({
              ...p,
              unit: unitAt(p.unit, voltage),
            })),
          },
        }
        : loaded,
    [loaded, voltage],
  );
  const view = structure.status === "success" ? structure.data : null;
  // Spec 2.4: Medium Voltage is disabled when no MV feeder exists.
  useMvAvailability(view ? view.has_mv_feeders : true);
  const tree = useMemo(() => (view ? panelTree(view, voltage) : []), [view, voltage]);
  const index = useMemo(() => feederIndex(tree), [tree]);
  const otherIndex = useMemo(
    () => feederIndex(view ? panelTree(view, voltage === "lv" ? "mv" : "lv") : []),
    [view, voltage],
  );
  return { structure, parameters, tree, index, otherIndex };
}

/**
 * Changes part of the URL search of the current screen. Selection changes replace the entry;
 * `push` (a drag-zoom) adds one so that Back returns to the previous period.
 */
export function useSearchPatch(
  from: StatisticsScreen,
): (patch: SelectionSearch, push?: boolean) => void {
  const navigate = useNavigate({ from });
  return useCallback((patch, push = false) => {
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: !push });
  }, [navigate]);
}

/** The two screens' routes. */
export type StatisticsScreen = "/visual-statistics/statistics" | "/visual-statistics/compare";
