import {
  Activity,
  BookOpen,
  Cable,
  ChartColumn,
  FileDown,
  Gauge,
  KeyRound,
  Network,
  Settings,
  SlidersHorizontal,
  ToggleRight,
  UserRound,
  Users,
  Waves,
} from "lucide-react";
import type { ModuleId } from "../../lib/modules.ts";
import { cn } from "../../ui/cn.ts";

const ICONS = {
  "user-settings": UserRound,
  "data-export": FileDown,
  "infrastructure-setup": Network,
  "scada-connector": Cable,
  "user-management": Users,
  "global-settings": Settings,
  "api-settings": KeyRound,
  "metering-information": Gauge,
  "grid-monitoring": Activity,
  "grid-monitoring-settings": SlidersHorizontal,
  "visual-statistics": ChartColumn,
  "power-quality": Waves,
  "api-doc": BookOpen,
  "io-monitoring": ToggleRight,
} satisfies Record<ModuleId, unknown>;

/** The icon of a module, the same in the mega menu, the header and the page. */
export function ModuleIcon({ id, className }: { id: ModuleId; className?: string }) {
  const Icon = ICONS[id];
  return <Icon aria-hidden className={cn("shrink-0", className)} />;
}
