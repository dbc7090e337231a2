/**
 * What happened to selected feeders that cannot be shown: an unknown one (a deleted feeder in
 * an old link) gets the catalogue's 'This element of the grid was not found!' and a way to drop
 * it; feeders of the other voltage level are only named, they come back with the other level.
 */
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { Notice } from "../../ui/notice.tsx";

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
          <Notice
            tone="warning"
            action={
              <Button variant="secondary" size="sm" onClick={() => onRemove(feeders.unknown)}>
                {t("notFound.remove")}
              </Button>
            }
          >
            {t("errors:grid.elementNotFound")}
          </Notice>
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
