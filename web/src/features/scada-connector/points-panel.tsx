import { Download, FileText, ListPlus, Save, Upload, Wand2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  dataTypeOf,
  EXTRA_QUANTITIES,
  type ExtraQuantity,
  isPhaseQuantity,
  type PointDto,
  type PointListDto,
  type ProfileDto,
} from "../../../../modules/scada/contract.ts";
import { saveBlob } from "../../charts/export.ts";
import { api, apiBlob } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { AddValuesDialog } from "./add-values-dialog.tsx";
import { PointsTable } from "./points-table.tsx";
import { pointsFromCsv, pointsToCsv } from "./scada-rules.ts";

/** A point as the list edits it (what PUT takes, with what the table shows). */
type EditedPoint = PointDto;

/**
 * The points of one profile in feeder order. The order changes by dragging (or from the
 * keyboard, or with the arrow buttons of each row: points-table.tsx); Save sends the whole list.
 * Generate fills the default list, with P, Q and the frequency when ticked; CSV export and import
 * exchange it; the PDF is the generated point list for the SCADA engineer (of the saved list).
 */
export function PointsPanel({ profile, onChanged }: {
  profile: ProfileDto;
  /** After a save or a generation; `saved` is the message to show (the page's toast). */
  onChanged: (saved?: string) => void;
}) {
  const { t } = useTranslation(["scada", "errors", "common"]);
  // Held here: a save reloads the list and remounts the editor (its key is the order).
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => setNotice(null), [profile.id]);
  const state = useAsync(
    (signal) => api.get<PointListDto>(`/scm/profiles/${profile.id}/points`, { signal }),
    [profile.id, profile.updated_at],
  );
  return (
    <section className="flex min-h-0 flex-col gap-3 rounded-lg border bg-surface p-4">
      <h2 className="text-sm font-semibold">{t("points.title", { name: profile.name })}</h2>
      <AsyncState state={state} onRetry={state.reload}>
        {(list) => (
          <PointsEditor
            key={JSON.stringify(list.points.map((p) => p.ioa))}
            profile={profile}
            initial={list.points}
            notice={notice}
            setNotice={setNotice}
            onSaved={(message) => {
              state.reload();
              onChanged(message);
            }}
          />
        )}
      </AsyncState>
    </section>
  );
}

/** A message under the editor's buttons. */
type Notice = { tone: "ok" | "error"; text: string };

function PointsEditor({ profile, initial, notice, setNotice, onSaved }: {
  profile: ProfileDto;
  initial: PointDto[];
  notice: Notice | null;
  setNotice: (notice: Notice | null) => void;
  onSaved: (message?: string) => void;
}) {
  const { t, i18n } = useTranslation(["scada", "errors"]);
  const errorText = useErrorText();
  const [points, setPoints] = useState<EditedPoint[]>(initial);
  const [confirm, setConfirm] = useState(false);
  const [adding, setAdding] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const dirty = JSON.stringify(points) !== JSON.stringify(initial);

  const [extra, setExtra] = useState<ExtraQuantity[]>([]);
  const saving = useAction(async () => {
    try {
      await api.put<PointListDto>(`/scm/profiles/${profile.id}/points`, {
        points: points.map((p) => ({
          ioa: p.ioa,
          node_id: p.node_id,
          feeder_id: p.feeder_id,
          quantity: p.quantity,
          phase: p.phase,
          activated: p.activated,
        })),
      }, { handleErrors: true });
      // The page reloads the profiles (this panel remounts): its toast says it.
      onSaved(t("points.saved"));
    } catch (error) {
      setNotice({ tone: "error", text: errorText(error).text });
    }
  });
  const generating = useAction(async () => {
    try {
      await api.post<PointListDto>(`/scm/profiles/${profile.id}/points/generate`, { extra }, {
        handleErrors: true,
      });
      onSaved();
    } catch (error) {
      setNotice({ tone: "error", text: errorText(error).text });
    }
  });
  const exportCsv = () => {
    const blob = new Blob([pointsToCsv(points)], { type: "text/csv;charset=utf-8" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `scada-points-${profile.name.replace(/[^\w-]+/g, "_")}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const exportPdf = useAction(async () => {
    const language = i18n.resolvedLanguage ?? "en";
    const blob = await apiBlob(
      `/scm/profiles/${profile.id}/points/pdf?language=${encodeURIComponent(language)}`,
    );
    if (!blob) {
      setNotice({ tone: "error", text: t("points.pdfFailed") });
      return;
    }
    saveBlob(blob, `scada-points-${profile.name.replace(/[^\w-]+/g, "_")}.pdf`);
  });
  const importCsv = async (selected: File) => {
    const { points: read, problem } = pointsFromCsv(await selected.text());
    if (problem) {
      setNotice({
        tone: "error",
        text: t("points.importFailed", { line: problem.line, message: t(`errors:${problem.key}`) }),
      });
      return;
    }
    const known = new Map(
      initial.map((p) => [`${p.node_id}|${p.feeder_id}|${p.quantity}|${p.phase}`, p]),
    );
    setPoints(read.map((p) => {
      const same = known.get(
        `${p.node_id}|${p.feeder_id ?? null}|${p.quantity}|${p.phase ?? null}`,
      );
      return {
        ioa: p.ioa,
        node_id: p.node_id,
        feeder_id: p.feeder_id ?? null,
        quantity: p.quantity,
        phase: p.phase ?? null,
        activated: p.activated ?? true,
        data_type: same?.data_type ?? dataTypeOf(p.quantity),
        element_type: same?.element_type ?? (isPhaseQuantity(p.quantity) ? "FEEDER" : "NODE"),
        element_name: same?.element_name ?? p.node_id,
        known: same?.known ?? false,
      };
    }));
    setNotice({ tone: "ok", text: t("points.imported", { count: read.length }) });
  };

  return (
    <div className="flex min-h-0 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={generating.busy}
          onClick={() => (points.length ? setConfirm(true) : void generating.run())}
        >
          <Wand2 aria-hidden />
          {t("points.generate")}
        </Button>
        <fieldset className="flex items-center gap-2 text-xs">
          <legend className="sr-only">{t("points.extra")}</legend>
          <span aria-hidden className="text-muted-foreground">{t("points.extra")}</span>
          {EXTRA_QUANTITIES.map((q) => (
            <label key={q} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={extra.includes(q)}
                onChange={(e) =>
                  setExtra((list) =>
                    e.target.checked
                      ? EXTRA_QUANTITIES.filter((x) => x === q || list.includes(x))
                      : list.filter((x) => x !== q)
                  )}
              />
              {t(`extraQuantities.${q}`)}
            </label>
          ))}
        </fieldset>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => setAdding(true)}
          disabled={dirty}
          title={dirty ? t("addValues.saveFirst") : undefined}
        >
          <ListPlus aria-hidden />
          {t("addValues.open")}
        </Button>
        <Button variant="secondary" size="sm" onClick={exportCsv} disabled={!points.length}>
          <Download aria-hidden />
          {t("points.export")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void exportPdf.run()}
          disabled={!points.length || dirty || exportPdf.busy}
          title={dirty ? t("points.pdfSaveFirst") : undefined}
        >
          <FileText aria-hidden />
          {t("points.pdf")}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => file.current?.click()}>
          <Upload aria-hidden />
          {t("points.import")}
        </Button>
        <input
          ref={file}
          type="file"
          accept=".csv,text/csv"
          hidden
          data-testid="scada-csv-input"
          onChange={(e) => {
            const selected = e.target.files?.[0];
            e.target.value = "";
            if (selected) void importCsv(selected);
          }}
        />
        <Button size="sm" disabled={!dirty || saving.busy} onClick={() => void saving.run()}>
          <Save aria-hidden />
          {t("points.save")}
        </Button>
        {dirty ? <span className="text-xs text-state-warning">{t("points.unsaved")}</span> : null}
      </div>
      {notice
        ? (
          <p
            role={notice.tone === "error" ? "alert" : "status"}
            className={notice.tone === "error" ? "text-sm text-state-critical" : "text-sm"}
          >
            {notice.text}
          </p>
        )
        : null}
      {points.length === 0
        ? <p className="text-sm text-muted-foreground">{t("points.empty")}</p>
        : (
          <>
            <p className="text-xs text-muted-foreground">{t("points.hint")}</p>
            <div className="max-h-[32rem] overflow-auto">
              <PointsTable points={points} onChange={setPoints} />
            </div>
          </>
        )}
      {adding
        ? (
          <AddValuesDialog
            profileId={profile.id}
            points={initial}
            open={adding}
            onOpenChange={setAdding}
            onAdded={(count) => {
              setAdding(false);
              if (count) onSaved(t("addValues.added", { count }));
              else setNotice({ tone: "ok", text: t("addValues.nothingNew") });
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={t("points.generate")}
        description={t("points.generateConfirm")}
        confirmLabel={t("points.generate")}
        cancelLabel={t("form.cancel")}
        onConfirm={() => {
          setConfirm(false);
          void generating.run();
        }}
      />
    </div>
  );
}
