import { FileSpreadsheet, ImageDown } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/button.tsx";

/**
 * The frame every chart shares: a toolbar (the chart's own actions, then PNG and CSV
 * download), the uPlot container, and the explanation shown over an empty chart.
 */
export function ChartFrame({ title, testId, container, empty, onPng, onCsv, actions }: {
  title: string;
  testId: string;
  container: RefObject<HTMLDivElement | null>;
  empty: boolean;
  onPng(): void;
  onCsv(): void;
  actions?: ReactNode;
}) {
  const { t } = useTranslation("common");
  const download = (label: string, icon: ReactNode, onClick: () => void) => (
    <Button variant="ghost" size="icon" aria-label={label} title={label} onClick={onClick}>
      {icon}
    </Button>
  );
  return (
    <figure className="relative flex flex-col gap-1" aria-label={title}>
      <div className="flex items-center justify-end gap-1">
        {actions}
        {download(t("chart.downloadPng"), <ImageDown aria-hidden />, onPng)}
        {download(t("chart.downloadCsv"), <FileSpreadsheet aria-hidden />, onCsv)}
      </div>
      <div ref={container} className="gw-chart w-full min-w-0" data-testid={testId} />
      {empty && (
        <p
          role="status"
          className="pointer-events-none absolute inset-x-0 top-1/2 text-center text-sm text-muted-foreground"
        >
          {t("chart.noValues")}
        </p>
      )}
    </figure>
  );
}
