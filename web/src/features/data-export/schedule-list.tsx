/**
 * The user's scheduled exports: what each exports, how often, when it runs next and how many
 * runs it made; run now (its last whole period as a new export), edit (in the form), pause or
 * resume (PUT with `active`), and delete with the spec's confirmation (the files of its runs
 * stay in the list of exports).
 */
import { FastForward, Pause, Pencil, Play, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { exportApi, type ScheduleDto } from "./export-api.ts";

/** The PUT body of a schedule as it is, with `active` changed. */
function withActive(s: ScheduleDto, active: boolean) {
  return {
    feeders: s.feeders,
    parameters: s.parameters,
    interval: s.interval,
    format: s.format,
    layout: s.layout,
    directory_structure: s.directory_structure,
    file_name: s.name,
    frequency: s.frequency,
    active,
  };
}

export function ScheduleList(
  { schedules, onChanged, onEdit, editing = null }: {
    schedules: readonly ScheduleDto[];
    onChanged: () => void;
    /** Opens the schedule in the form. */
    onEdit: (schedule: ScheduleDto) => void;
    /** The key of the schedule the form edits. */
    editing?: string | null;
  },
) {
  const { t } = useTranslation(["data-export", "errors"]);
  const format = useFormatters();
  const errorText = useErrorText();
  const [failure, setFailure] = useState<string | null>(null);
  const [ran, setRan] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ScheduleDto | null>(null);
  const act = (action: () => Promise<unknown>, done?: string) => {
    setFailure(null);
    setRan(null);
    action().then(() => {
      if (done) setRan(done);
      onChanged();
    }, (error) => setFailure(errorText(error).text));
  };
  if (!schedules.length) {
    return <p className="text-sm text-muted-foreground">{t("schedules.empty")}</p>;
  }
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {failure && <Notice tone="critical">{failure}</Notice>}
      {ran && <Notice tone="ok">{ran}</Notice>}
      <div className="overflow-auto rounded-lg border bg-surface">
        <Table>
          <TableHead>
            <tr>
              <HeadCell>{t("schedules.name")}</HeadCell>
              <HeadCell>{t("schedules.frequency")}</HeadCell>
              <HeadCell>{t("schedules.next")}</HeadCell>
              <HeadCell numeric>{t("schedules.runs")}</HeadCell>
              <HeadCell>
                <span className="sr-only">{t("list.actions")}</span>
              </HeadCell>
            </tr>
          </TableHead>
          <TableBody>
            {schedules.map((s) => (
              <Row
                key={s.key}
                data-testid={`schedule-${s.key}`}
                aria-current={editing === s.key ? "true" : undefined}
                className={editing === s.key ? "bg-primary/5" : undefined}
              >
                <Cell className="max-w-72">
                  <div className="truncate font-medium" title={s.name}>{s.name}</div>
                  <div className="text-xs text-muted-foreground">
                    {t("schedules.summary", {
                      feeders: s.feeders.length,
                      interval: t(`interval.${s.interval}`),
                      format: t(`format.${s.format}`),
                      layout: t(`layout.${s.layout}`),
                    })}
                  </div>
                </Cell>
                <Cell>
                  <Badge tone={s.active ? "ok" : "neutral"} data-testid="schedule-frequency">
                    {s.active ? t(`repeat.${s.frequency}`) : t("schedules.paused")}
                  </Badge>
                </Cell>
                <Cell className="text-xs">
                  {s.active ? format.dateTime(s.next_run_at) : ""}
                  {s.last_run_at && (
                    <div className="text-muted-foreground">
                      {t("schedules.last", { at: format.dateTime(s.last_run_at) })}
                    </div>
                  )}
                </Cell>
                <Cell numeric>{format.number(s.runs, 0)}</Cell>
                <Cell>
                  <div className="flex justify-end gap-1">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t("schedules.runNowLabel", { name: s.name })}
                      title={t("schedules.runNowLabel", { name: s.name })}
                      onClick={() =>
                        act(
                          () => exportApi.runSchedule(s.key),
                          t("schedules.ranNow", { name: s.name }),
                        )}
                    >
                      <FastForward aria-hidden />
                      {t("schedules.runNow")}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t("schedules.editLabel", { name: s.name })}
                      title={t("schedules.editLabel", { name: s.name })}
                      onClick={() => onEdit(s)}
                    >
                      <Pencil aria-hidden />
                      {t("schedules.edit")}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() =>
                        act(() => exportApi.updateSchedule(s.key, withActive(s, !s.active)))}
                    >
                      {s.active ? <Pause aria-hidden /> : <Play aria-hidden />}
                      {s.active ? t("schedules.pause") : t("schedules.resume")}
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={t("schedules.delete")}
                      title={t("schedules.delete")}
                      onClick={() => setDeleting(s)}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                </Cell>
              </Row>
            ))}
          </TableBody>
        </Table>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("schedules.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("list.deleteDescription")}
        confirmLabel={t("list.deleteConfirm")}
        cancelLabel={t("list.deleteCancel")}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target) act(() => exportApi.removeSchedule(target.key));
        }}
      />
    </div>
  );
}
