import { ArrowDown, ArrowUp, Download, Save, Upload, Wand2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PointDto, PointListDto, ProfileDto } from "../../../../modules/scada/contract.ts";
import { api } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { pointsFromCsv, pointsToCsv } from "./scada-rules.ts";

/** A point as the list edits it (what PUT takes, with what the table shows). */
type EditedPoint = PointDto;

/**
 * The points of one profile in feeder order. The order changes with the arrow buttons of each
 * row (buttons rather than dragging: usable from the keyboard, and one control less to test);
 * Save sends the whole list. Generate fills the default list; CSV export and import exchange it.
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
  const { t } = useTranslation(["scada", "errors"]);
  const errorText = useErrorText();
  const [points, setPoints] = useState<EditedPoint[]>(initial);
  const [confirm, setConfirm] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const dirty = JSON.stringify(points) !== JSON.stringify(initial);

  const move = (k: number, by: -1 | 1) =>
    setPoints((list) => {
      const next = [...list];
      const [item] = next.splice(k, 1);
      next.splice(k + by, 0, item!);
      return next;
    });
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
      await api.post<PointListDto>(`/scm/profiles/${profile.id}/points/generate`, undefined, {
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
        data_type: same?.data_type ??
          (p.quantity === "U" || p.quantity === "I" ? "FLOAT" : "SINGLE_POINT"),
        element_type: same?.element_type ?? (p.feeder_id ? "FEEDER" : "NODE"),
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
        <Button variant="secondary" size="sm" onClick={exportCsv} disabled={!points.length}>
          <Download aria-hidden />
          {t("points.export")}
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
              <Table data-testid="scada-points">
                <TableHead sticky>
                  <Row>
                    <HeadCell numeric>{t("columns.ioa")}</HeadCell>
                    <HeadCell>{t("columns.element")}</HeadCell>
                    <HeadCell>{t("columns.quantity")}</HeadCell>
                    <HeadCell>{t("columns.dataType")}</HeadCell>
                    <HeadCell>{t("columns.activated")}</HeadCell>
                    <HeadCell>{t("columns.order")}</HeadCell>
                  </Row>
                </TableHead>
                <TableBody>
                  {points.map((p, k) => (
                    <Row key={p.ioa}>
                      <Cell numeric>{p.ioa}</Cell>
                      <Cell>
                        {p.element_name}
                        {p.known ? null : (
                          <span className="ml-1 text-xs text-state-warning">
                            ({t("points.unknown")})
                          </span>
                        )}
                      </Cell>
                      <Cell>{t(`quantities.${p.quantity}`, { phase: p.phase ?? "" })}</Cell>
                      <Cell className="text-xs text-muted-foreground">
                        {t(`dataTypes.${p.data_type}`)}
                      </Cell>
                      <Cell>
                        <input
                          type="checkbox"
                          checked={p.activated}
                          aria-label={t("columns.activated")}
                          onChange={(e) =>
                            setPoints((list) =>
                              list.map((q, j) =>
                                j === k ? { ...q, activated: e.target.checked } : q
                              )
                            )}
                        />
                      </Cell>
                      <Cell>
                        <div className="flex gap-1">
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={t("points.up")}
                            disabled={k === 0}
                            onClick={() => move(k, -1)}
                          >
                            <ArrowUp aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={t("points.down")}
                            disabled={k === points.length - 1}
                            onClick={() => move(k, 1)}
                          >
                            <ArrowDown aria-hidden />
                          </Button>
                        </div>
                      </Cell>
                    </Row>
                  ))}
                </TableBody>
              </Table>
            </div>
          </>
        )}
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
