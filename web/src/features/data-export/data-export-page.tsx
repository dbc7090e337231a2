/**
 * Data Export (spec 2.1, /data-export): the export form beside the user's exports, whose list
 * refreshes every 2 s while one is queued or running (progress bar), else every 30 s.
 * Administrators see the disk the export files use.
 */
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ACTIVE } from "../../../../modules/export/contract.ts";
import { api } from "../../lib/api.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { exportApi, type ScheduleDto } from "./export-api.ts";
import { ExportFormCard } from "./export-form-card.tsx";
import { sizeParts } from "./export-form.ts";
import { ExportList } from "./export-list.tsx";
import { ScheduleList } from "./schedule-list.tsx";

const PROGRESS_MS = 2_000;

export function DataExportPage() {
  const { t } = useTranslation(["data-export", "modules"]);
  const format = useFormatters();
  const feeders = useLiveLoad((signal) => exportApi.feeders(signal), "feeders", null);
  const list = useLiveLoad((signal) => exportApi.list(signal), "exports", REFRESH_MS);
  const schedules = useLiveLoad((signal) => exportApi.schedules(signal), "schedules", REFRESH_MS);
  const running = list.data?.items.some((e) => ACTIVE.includes(e.status)) ?? false;
  const progress = useLiveLoad(
    (signal) => exportApi.list(signal),
    running ? "progress" : null,
    PROGRESS_MS,
  );
  const exports = (running && progress.data ? progress.data : list.data)?.items;
  // Administrators only; anyone else gets 403 and sees nothing.
  const usage = useLiveLoad(
    (signal) =>
      api.get<{ files: number; bytes: number }>("/dem/usage", { signal, handleErrors: true }),
    "usage",
    null,
  );
  const [editing, setEditing] = useState<ScheduleDto | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const refresh = () => {
    list.refresh();
    schedules.refresh();
    progress.refresh();
    usage.refresh();
  };
  const usageText = usage.data
    ? t("usage", {
      files: usage.data.files,
      size: t("size", {
        value: format.number(sizeParts(usage.data.bytes).value, 1),
        unit: sizeParts(usage.data.bytes).unit,
      }),
    })
    : null;
  return (
    <Page
      title={t("modules:data-export.title")}
      subtitle={t("modules:data-export.purpose")}
      actions={usageText
        ? <span className="text-xs text-muted-foreground">{usageText}</span>
        : null}
    >
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 xl:grid-cols-[minmax(0,30rem)_minmax(0,1fr)]">
        <AsyncState state={liveState(feeders)} onRetry={feeders.refresh}>
          {(answer) => (
            <div ref={formRef} className="min-w-0">
              <ExportFormCard
                feeders={answer.feeders}
                onCreated={refresh}
                editing={editing}
                onEditEnd={() => setEditing(null)}
              />
            </div>
          )}
        </AsyncState>
        <div className="flex min-w-0 flex-col gap-6">
          <section className="flex min-w-0 flex-col gap-2" aria-label={t("list.title")}>
            <h2 className="text-base font-semibold">{t("list.title")}</h2>
            <AsyncState state={liveState(list)} onRetry={list.refresh}>
              {() => <ExportList exports={exports ?? []} onChanged={refresh} />}
            </AsyncState>
          </section>
          <section className="flex min-w-0 flex-col gap-2" aria-label={t("schedules.title")}>
            <h2 className="text-base font-semibold">{t("schedules.title")}</h2>
            <AsyncState state={liveState(schedules)} onRetry={schedules.refresh}>
              {(answer) => (
                <ScheduleList
                  schedules={answer.items}
                  onChanged={refresh}
                  editing={editing?.key ?? null}
                  onEdit={(s) => {
                    setEditing(s);
                    formRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
                  }}
                />
              )}
            </AsyncState>
          </section>
        </div>
      </div>
    </Page>
  );
}
