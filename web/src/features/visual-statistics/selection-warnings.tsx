/**
 * What happened to selected feeders that cannot be shown: an unknown one (a deleted feeder in
 * an old link) gets the catalogue's 'This element of the grid was not found!' and a way to drop
 * it; feeders of the other voltage level are only named, they come back with the other level.
 */
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";

export function SelectionWarnings({
  feeders,
  onRemove,
}: {
  feeders: { otherLevel: string[]; unknown: string[] };
  onRemove: (ids: string[]) => void;
}) {
  const { t } = useTranslation(["statistics", "errors"]);
  return (
    <>
      {feeders.unknown.length
        ? (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 rounded-md border border-state-warning bg-state-warning-soft px-3 py-2 text-sm"
          >
            <span className="text-foreground">{t("errors:grid.elementNotFound")}</span>
            <Button variant="secondary" size="sm" onClick={() => onRemove(feeders.unknown)}>
              {t("notFound.remove")}
            </Button>
          </div>
        )
        : null}
      {feeders.otherLevel.length
        ? (
          <p role="status" className="text-sm text-muted-foreground">
            {t("notFound.otherLevel", { count: feeders.otherLevel.length })}
          </p>
        )
        : null}
    </>
  );
}
