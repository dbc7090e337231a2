/**
 * The frame both screens share: title, the Statistics/Compare switch (carrying voltage, feeders
 * and period), the grid panel on the left and the controls and charts on the right, with the
 * loading and failure states of the grid and the parameters.
 */
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Voltage } from "../../lib/voltage.ts";
import { cn } from "../../ui/cn.ts";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { StructureMissing } from "../../ui/structure-missing.tsx";
import { Page } from "../../ui/page.tsx";
import { FeederPanel } from "./feeder-panel.tsx";
import type { SelectionSearch } from "./selection.ts";
import type { FeederPlace } from "./structure.ts";
import type { ParametersAnswer } from "./vsm-api.ts";
import type { useStatisticsBase } from "./use-statistics-base.ts";

type Section = "statistics" | "compare";

function SectionSwitch(
  { current, carry }: { current: Section; carry: SelectionSearch & { voltage: Voltage } },
) {
  const { t } = useTranslation("modules");
  return (
    <nav
      aria-label={t("visual-statistics.title")}
      className="inline-flex h-8 items-center rounded-md bg-surface-muted p-0.5 text-xs font-medium text-muted-foreground"
    >
      {(["statistics", "compare"] as const).map((section) => (
        <Link
          key={section}
          to={section === "statistics"
            ? "/visual-statistics/statistics"
            : "/visual-statistics/compare"}
          search={carry}
          aria-current={section === current ? "page" : undefined}
          className={cn(
            "flex h-7 items-center rounded px-3 transition-colors",
            section === current ? "bg-surface text-foreground shadow-sm" : "hover:text-foreground",
          )}
        >
          {t(`visual-statistics.sections.${section}`)}
        </Link>
      ))}
    </nav>
  );
}

export function StatisticsLayout({
  section,
  subtitle,
  base,
  carry,
  selected,
  onToggle,
  onClear,
  colorOf,
  children,
}: {
  section: Section;
  subtitle: string;
  base: ReturnType<typeof useStatisticsBase>;
  /** What the other screen keeps from this one. */
  carry: SelectionSearch & { voltage: Voltage };
  selected: readonly string[];
  onToggle: (feeder: FeederPlace) => void;
  onClear: () => void;
  colorOf?: (id: string) => string | undefined;
  children: (parameters: ParametersAnswer) => ReactNode;
}) {
  const { t } = useTranslation(["modules", "errors"]);
  const { structure, parameters } = base;
  const reload = () => {
    if (structure.status === "error") structure.reload();
    if (parameters.status === "error") parameters.reload();
  };
  let body: ReactNode;
  if (structure.status === "error" || parameters.status === "error") {
    body = <LoadError onRetry={reload} className="flex-1 rounded-lg border bg-surface" />;
  } else if (structure.status === "loading" || parameters.status === "loading") {
    body = <Loader className="flex-1" />;
  } else if (structure.data.lv_groups.length === 0) {
    body = <StructureMissing className="flex-1" />;
  } else {
    const panelProps = colorOf ? { colorOf } : {};
    body = (
      <div className="flex min-h-0 flex-1 gap-4">
        <FeederPanel
          tree={base.tree}
          selected={selected}
          onToggle={onToggle}
          onClear={onClear}
          {...panelProps}
        />
        <div className="flex min-w-0 flex-1 flex-col gap-3 overflow-auto">
          {children(parameters.data)}
        </div>
      </div>
    );
  }
  return (
    <Page
      title={t("visual-statistics.title")}
      subtitle={subtitle}
      actions={<SectionSwitch current={section} carry={carry} />}
    >
      {body}
    </Page>
  );
}
