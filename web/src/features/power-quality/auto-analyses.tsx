/**
 * Auto-analyses (spec 2.1 #auto-analyses): the customer's weekly analyses with status, next run
 * and the actions the status allows (the server answers 503 otherwise), the schedule dialog
 * (administrators), and an analysis' history of runs 12 per page with the reports each made.
 */
import { CalendarClock, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  AUTO_ACTION_STATUSES,
  AUTO_SCOPES,
  type AutoScope,
  WEEKDAYS,
} from "../../../../modules/power_quality/auto/contract.ts";
import {
  REPORT_LANGUAGES,
  type ReportLanguage,
} from "../../../../modules/power_quality/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { type FieldMessage, serverErrors } from "../../lib/field-errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Select } from "../../ui/select.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { type AutoAnalysisDto, autoApi } from "./pq-auto-api.ts";
import { pqApi, type PqElectricalWorksDto } from "./pq-reports-api.ts";
import { ResultBadge } from "./report-badges.tsx";

type Field = "name" | "nodes" | "group" | "start" | "weekday";
type ErrorState = ReturnType<typeof serverErrors<Field>>;

/** The auto-analyses section; `onOpenReport` shows a report in the page's detail panel. */
export function AutoAnalyses(
  { works, admin, onOpenReport }: {
    works: PqElectricalWorksDto | null;
    admin: boolean;
    onOpenReport: (key: string) => void;
  },
) {
  const { t } = useTranslation(["pq-auto", "errors"]);
  const format = useFormatters();
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<ErrorState["form"] | null>(null);
  const list = useLiveLoad((signal) => autoApi.list(signal), "auto", REFRESH_MS);
  const act = useAction(
    async (a: AutoAnalysisDto, action: "pause" | "resume" | "run" | "delete") => {
      setProblem(null);
      try {
        if (action === "delete") await autoApi.remove(a.key);
        else await autoApi.action(a.key, action);
        if (action === "run") setSelected(a.key);
        list.refresh();
      } catch (error) {
        setProblem(
          serverErrors<Field>(error instanceof ApiError ? error.body : null, {
            field: () => null,
          }).form ?? null,
        );
      }
    },
  );

  return (
    <section id="auto-analyses" className="flex flex-col gap-3" data-testid="pq-auto">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
        {admin
          ? (
            <Button
              onClick={() => setCreating(true)}
              disabled={!works}
              data-testid="pq-auto-create"
            >
              <Plus aria-hidden />
              {t("create")}
            </Button>
          )
          : null}
      </div>
      {problem
        ? (
          <Notice tone="critical" code={problem.code}>
            {t(`errors:${problem.key}`, problem.params ?? {})}
          </Notice>
        )
        : null}
      <AsyncState state={liveState(list)} onRetry={list.refresh}>
        {(answer) =>
          answer.auto_analyses.length === 0
            ? (
              <EmptyState
                icon={<CalendarClock />}
                title={t("empty")}
                description={t("emptyHint")}
              />
            )
            : (
              <div className="overflow-x-auto rounded-lg border bg-surface p-3">
                <Table data-testid="pq-auto-list">
                  <TableHead>
                    <Row>
                      <HeadCell>{t("columns.name")}</HeadCell>
                      <HeadCell>{t("columns.target")}</HeadCell>
                      <HeadCell>{t("columns.when")}</HeadCell>
                      <HeadCell>{t("columns.status")}</HeadCell>
                      <HeadCell>{t("columns.next")}</HeadCell>
                      <HeadCell />
                    </Row>
                  </TableHead>
                  <TableBody>
                    {answer.auto_analyses.map((a) => (
                      <Row key={a.key} className={a.key === selected ? "bg-surface-muted" : ""}>
                        <Cell>
                          <button
                            type="button"
                            className="text-left font-medium text-primary hover:underline"
                            onClick={() =>
                              setSelected(a.key === selected ? null : a.key)}
                          >
                            {a.name}
                          </button>
                          <div className="text-xs text-muted-foreground">{a.limit_set}</div>
                        </Cell>
                        <Cell className="text-xs">
                          {a.group
                            ? `${t(`scopes.${a.scope}`)}: ${a.group.name}`
                            : a.nodes.map((n) =>
                              n.name
                            ).join(", ")}
                        </Cell>
                        <Cell className="text-xs">
                          {t("when", {
                            day: t(`weekdays.${a.weekday}`),
                            hour: String(a.hour).padStart(2, "0"),
                            zone: a.timezone,
                          })}
                        </Cell>
                        <Cell>{t(`status.${a.status}`)}</Cell>
                        <Cell className="text-xs">
                          {a.next_run ? format.dateTime(a.next_run) : "–"}
                        </Cell>
                        <Cell>
                          {admin
                            ? (
                              <div className="flex flex-wrap gap-1">
                                {(["pause", "resume", "run", "delete"] as const)
                                  .filter((x) => AUTO_ACTION_STATUSES[x].includes(a.status))
                                  .map((x) => (
                                    <Button
                                      key={x}
                                      size="sm"
                                      variant={x === "delete" ? "danger" : "secondary"}
                                      disabled={act.busy}
                                      onClick={() => void act.run(a, x)}
                                    >
                                      {t(`actions.${x}`)}
                                    </Button>
                                  ))}
                              </div>
                            )
                            : null}
                        </Cell>
                      </Row>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
      </AsyncState>
      {selected ? <RunHistory analysisKey={selected} onOpenReport={onOpenReport} /> : null}
      {works && list.data
        ? (
          <ScheduleDialog
            open={creating}
            onOpenChange={setCreating}
            works={works}
            timezone={list.data.timezone}
            onCreated={() => list.refresh()}
          />
        )
        : null}
    </section>
  );
}

function RunHistory(
  { analysisKey, onOpenReport }: { analysisKey: string; onOpenReport: (key: string) => void },
) {
  const { t } = useTranslation(["pq-auto", "errors"]);
  const format = useFormatters();
  const [page, setPage] = useState(0);
  const runs = useLiveLoad(
    (signal) => autoApi.runs(analysisKey, page, signal),
    `${analysisKey}|${page}`,
    5_000,
  );
  return (
    <section className="rounded-lg border bg-surface p-3" data-testid="pq-auto-runs">
      <h3 className="mb-2 text-sm font-semibold">{t("history")}</h3>
      <AsyncState state={liveState(runs)} onRetry={runs.refresh}>
        {(answer) =>
          answer.total === 0 ? <p className="text-sm text-muted-foreground">{t("noRuns")}</p> : (
            <>
              <Table>
                <TableHead>
                  <Row>
                    <HeadCell>{t("runs.week")}</HeadCell>
                    <HeadCell>{t("runs.at")}</HeadCell>
                    <HeadCell>{t("runs.status")}</HeadCell>
                    <HeadCell>{t("runs.reports")}</HeadCell>
                  </Row>
                </TableHead>
                <TableBody>
                  {answer.runs.map((run) => (
                    <Row key={run.key}>
                      <Cell>{run.week.label}</Cell>
                      <Cell className="text-xs">
                        {format.dateTime(run.scheduled_for)} {run.manual ? `(${t("manual")})` : ""}
                      </Cell>
                      <Cell>
                        {t(`runStatus.${run.status}`)}
                        {run.failure
                          ? (
                            <div className="text-xs text-state-critical">
                              <CodedText
                                text={t(`errors:${run.failure.key}`, run.failure.params)}
                                code={run.failure.code ?? undefined}
                              />
                            </div>
                          )
                          : null}
                      </Cell>
                      <Cell>
                        <ul className="flex flex-col gap-1 text-xs">
                          {run.items.map((item) => (
                            <li key={item.node_id} className="flex flex-wrap items-center gap-2">
                              {item.report
                                ? (
                                  <button
                                    type="button"
                                    className="text-primary hover:underline"
                                    onClick={() => onOpenReport(item.report!.key)}
                                  >
                                    {item.node_name}
                                  </button>
                                )
                                : <span>{item.node_name}</span>}
                              {item.report?.result
                                ? <ResultBadge passed={item.report.result} />
                                : null}
                              {item.report && !item.report.result
                                ? t(`reportStatus.${item.report.status}`)
                                : null}
                              {item.failure
                                ? (
                                  <CodedText
                                    text={t(`errors:${item.failure.key}`, item.failure.params)}
                                    code={item.failure.code ?? undefined}
                                  />
                                )
                                : null}
                            </li>
                          ))}
                        </ul>
                      </Cell>
                    </Row>
                  ))}
                </TableBody>
              </Table>
              {answer.total > answer.size
                ? (
                  <div className="mt-2 flex items-center justify-end gap-2 text-xs">
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={page === 0}
                      onClick={() => setPage(page - 1)}
                    >
                      {t("previous")}
                    </Button>
                    <span>
                      {t("pageOf", {
                        page: page + 1,
                        pages: Math.ceil(answer.total / answer.size),
                      })}
                    </span>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={(page + 1) * answer.size >= answer.total}
                      onClick={() => setPage(page + 1)}
                    >
                      {t("next")}
                    </Button>
                  </div>
                )
                : null}
            </>
          )}
      </AsyncState>
    </section>
  );
}

function ScheduleDialog(
  { open, onOpenChange, works, timezone, onCreated }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    works: PqElectricalWorksDto;
    timezone: string;
    onCreated: () => void;
  },
) {
  const { t, i18n } = useTranslation(["pq-auto", "pq-reports", "errors"]);
  const today = new Date().toISOString().slice(0, 10);
  const [name, setName] = useState("");
  const [language, setLanguage] = useState<ReportLanguage>(
    (REPORT_LANGUAGES as readonly string[]).includes(i18n.language)
      ? i18n.language as ReportLanguage
      : "en",
  );
  const [scope, setScope] = useState<AutoScope>("NODES");
  const [nodes, setNodes] = useState<string[]>([]);
  const [weekday, setWeekday] = useState(1);
  const [hour, setHour] = useState("6");
  const [start, setStart] = useState(today);
  const [limitSet, setLimitSet] = useState("EN50160");
  const [errors, setErrors] = useState<ErrorState | null>(null);
  const sets = useLiveLoad((signal) => pqApi.limitSets(signal), open ? "sets" : null, null);
  const structure = useLiveLoad(
    (signal) => autoApi.groups(signal),
    open && scope !== "NODES" ? "groups" : null,
    null,
  );
  const [group, setGroup] = useState("");
  const candidates = works.electrical_works.flatMap((w) =>
    w.nodes.filter((n) => n.has_cell).map((n) => ({
      id: n.id,
      label: w.name === n.name ? n.name : `${w.name} / ${n.name}`,
    }))
  );
  const groups = (structure.data ?? []).flatMap((s) =>
    s.mv_feeder_groups.flatMap((mv) =>
      scope === "MV_GROUP"
        ? [{ id: mv.id, name: mv.name }]
        : mv.lv_groups.map((l) => ({ id: l.id, name: l.name }))
    )
  );
  // The form mirrors the server's rules; the server's word wins (its codes land on the fields).
  const local: Partial<Record<Field, FieldMessage>> = {};
  const trimmed = name.trim();
  if (!trimmed) local.name = { key: "validation.pleaseInputName" };
  else if (trimmed.length < 3) local.name = { key: "validation.nameMin", params: { count: 3 } };
  else if (trimmed.length > 60) local.name = { key: "validation.nameMax", params: { count: 60 } };
  else if (/[:<>"/\\|?*!]/.test(trimmed)) local.name = { key: "validation.forbiddenChars" };
  if (scope === "NODES" && !nodes.length) local.nodes = { key: "validation.required" };
  if (scope !== "NODES" && !group) local.group = { key: "validation.required" };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start)) local.start = { key: "validation.dateInvalid" };
  const [touched, setTouched] = useState(false);
  const submit = useAction(async () => {
    try {
      await autoApi.create({
        name: trimmed,
        language,
        scope,
        nodes: scope === "NODES" ? nodes : [],
        ...(scope === "NODES" ? {} : { group }),
        standard: limitSet === "EN50160" ? "EN50160" : "CUSTOM",
        ...(limitSet === "EN50160" ? {} : { limit_set: limitSet }),
        weekday,
        hour: Number(hour),
        start,
      });
      onCreated();
      onOpenChange(false);
      setName("");
      setTouched(false);
    } catch (error) {
      setErrors(serverErrors<Field>(error instanceof ApiError ? error.body : null, {
        field: (path) =>
          (["name", "nodes", "group", "start", "weekday"] as string[]).includes(path)
            ? path as Field
            : null,
        keyField: (key) =>
          key === "pq.autoAnalysisExists"
            ? "name"
            : key === "pq.autoAnalysisBeyondDataLifetime" || key === "pq.tooFarInFuture"
            ? "start"
            : key === "pq.noNodeLinked" || key === "pq.nodeDeleted"
            ? "nodes"
            : key === "grid.elementNotFound"
            ? "group"
            : null,
      }));
    }
  });
  const message = (field: Field) => {
    const m: FieldMessage | undefined = errors?.fields[field] ??
      (touched ? local[field] : undefined);
    return m ? <CodedText text={t(`errors:${m.key}`, m.params ?? {})} code={m.code} /> : undefined;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setErrors(null);
    if (Object.keys(local).length === 0) void submit.run();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(40rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("createTitle")}</DialogTitle>
          <DialogDescription>{t("createHint")}</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={onSubmit}
          noValidate
          data-testid="pq-auto-form"
        >
          <FormField label={t("fields.name")} error={message("name")} className="sm:col-span-2">
            {(control) => (
              <Input
                {...control}
                name="name"
                value={name}
                maxLength={80}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </FormField>
          <FormField label={t("fields.scope")}>
            {(control) => (
              <Select
                {...control}
                value={scope}
                options={AUTO_SCOPES.map((s) => ({ value: s, label: t(`scopes.${s}`) }))}
                onValueChange={(s) => {
                  setScope(s as AutoScope);
                  setGroup("");
                }}
              />
            )}
          </FormField>
          <FormField label={t("fields.language")}>
            {(control) => (
              <Select
                {...control}
                value={language}
                options={REPORT_LANGUAGES.map((l) => ({
                  value: l,
                  label: t(`pq-reports:languages.${l}`),
                }))}
                onValueChange={(l) => setLanguage(l as ReportLanguage)}
              />
            )}
          </FormField>
          {scope === "NODES"
            ? (
              <fieldset className="flex flex-col gap-1 sm:col-span-2" data-testid="pq-auto-nodes">
                <legend className="text-xs font-medium text-muted-foreground">
                  {t("fields.nodes")}
                </legend>
                <div className="flex max-h-40 flex-wrap gap-3 overflow-y-auto">
                  {candidates.map((n) => (
                    <label key={n.id} className="flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        checked={nodes.includes(n.id)}
                        onChange={(e) =>
                          setNodes(
                            e.target.checked ? [...nodes, n.id] : nodes.filter((id) =>
                              id !== n.id
                            ),
                          )}
                      />
                      {n.label}
                    </label>
                  ))}
                </div>
                {message("nodes")
                  ? <p role="alert" className="text-xs text-state-critical">{message("nodes")}</p>
                  : null}
              </fieldset>
            )
            : (
              <FormField
                label={t("fields.group")}
                error={message("group")}
                className="sm:col-span-2"
              >
                {(control) => (
                  <Select
                    {...control}
                    value={group || undefined}
                    placeholder={t("fields.groupPlaceholder")}
                    options={groups.map((g) => ({ value: g.id, label: g.name }))}
                    onValueChange={setGroup}
                  />
                )}
              </FormField>
            )}
          <FormField label={t("fields.weekday")}>
            {(control) => (
              <Select
                {...control}
                value={String(weekday)}
                options={WEEKDAYS.map((d) => ({ value: String(d), label: t(`weekdays.${d}`) }))}
                onValueChange={(d) => setWeekday(Number(d))}
              />
            )}
          </FormField>
          <FormField label={t("fields.hour")} hint={t("fields.hourHint", { zone: timezone })}>
            {(control) => (
              <Select
                {...control}
                value={hour}
                options={Array.from(
                  { length: 24 },
                  (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }),
                )}
                onValueChange={setHour}
              />
            )}
          </FormField>
          <FormField
            label={t("fields.start")}
            hint={t("fields.startHint")}
            error={message("start")}
          >
            {(control) => (
              <Input
                {...control}
                name="start"
                type="date"
                value={start}
                onChange={(e) => setStart(e.target.value)}
              />
            )}
          </FormField>
          <FormField label={t("fields.standard")}>
            {(control) => (
              <Select
                {...control}
                value={limitSet}
                options={(sets.data?.limit_sets ?? [{ key: "EN50160", name: "EN 50160" }]).map((
                  s,
                ) => ({
                  value: s.key,
                  label: s.key === "EN50160" ? s.name : t("pq-reports:customSet", { name: s.name }),
                }))}
                onValueChange={setLimitSet}
              />
            )}
          </FormField>
          {errors?.form
            ? (
              <Notice tone="critical" code={errors.form.code} className="sm:col-span-2">
                {t(`errors:${errors.form.key}`, errors.form.params ?? {})}
              </Notice>
            )
            : null}
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={submit.busy} data-testid="pq-auto-submit">
              {t("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
