/** How a grid state looks everywhere on the screen: colour token, icon and label together. */
import { ArrowDownToLine, ArrowUpToLine, CircleCheck, CircleOff, PlugZap, Zap } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { MapState } from "../../map/grid-map.tsx";
import { cn } from "../../ui/cn.ts";
import type { GridState, Phase } from "./grid-types.ts";

export const STATE_LOOK: Record<
  GridState,
  { map: MapState; badge: string; text: string; dot: string; icon: ReactNode }
> = {
  OK: {
    map: "ok",
    dot: "bg-state-ok",
    badge: "bg-state-ok-soft text-state-ok",
    text: "text-state-ok",
    icon: <CircleCheck aria-hidden />,
  },
  UNDERVOLTAGE: {
    map: "warning",
    dot: "bg-state-warning",
    badge: "bg-state-warning-soft text-state-warning",
    text: "text-state-warning",
    icon: <ArrowDownToLine aria-hidden />,
  },
  OVERVOLTAGE: {
    map: "warning",
    dot: "bg-state-warning",
    badge: "bg-state-warning-soft text-state-warning",
    text: "text-state-warning",
    icon: <ArrowUpToLine aria-hidden />,
  },
  OVERCURRENT: {
    map: "warning",
    dot: "bg-state-warning",
    badge: "bg-state-warning-soft text-state-warning",
    text: "text-state-warning",
    icon: <Zap aria-hidden />,
  },
  NO_DATA: {
    map: "offline",
    dot: "bg-state-offline",
    badge: "bg-state-offline-soft text-state-offline",
    text: "text-state-offline",
    icon: <CircleOff aria-hidden />,
  },
  INTERRUPTION: {
    map: "critical",
    dot: "bg-state-critical",
    badge: "bg-state-critical-soft text-state-critical",
    text: "text-state-critical",
    icon: <PlugZap aria-hidden />,
  },
};

/** A state as a small pill: icon and translated label on the state's soft colour. */
export function StateBadge(
  { state, muted = false, className }: { state: GridState; muted?: boolean; className?: string },
) {
  const { t } = useTranslation("grid-monitoring");
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium [&_svg]:size-3.5",
        STATE_LOOK[state].badge,
        muted && "opacity-70",
        className,
      )}
    >
      {STATE_LOOK[state].icon}
      {t(`states.${state}`)}
    </span>
  );
}

const PHASE_DOT: Record<Phase, string> = {
  L1: "bg-phase-l1",
  L2: "bg-phase-l2",
  L3: "bg-phase-l3",
  N: "bg-phase-n",
};

/** A phase name with its spec colour (L1 red, L2 blue, L3 green, N orange). */
export function PhaseLabel({ phase }: { phase: Phase }) {
  return (
    <span className="inline-flex items-center gap-1.5 font-medium">
      <span aria-hidden className={cn("inline-block h-3 w-1.5 rounded-sm", PHASE_DOT[phase])} />
      {phase}
    </span>
  );
}
