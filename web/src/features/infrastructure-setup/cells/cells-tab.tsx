/**
 * The cells of the infrastructure setup (spec 2.8, 4, 5, 9): cells waiting for configuration, in
 * stock and in the field (10 per page), search with a 500 ms input delay, status badges with the
 * server's label keys, GPS and GSM indicators, the cell message, linking to a node, and the line
 * mapping with its validation. Registering cells and their credentials: cell-onboarding-dialogs.tsx
 * and cell-credential-actions.tsx.
 */
import {
  ChevronLeft,
  ChevronRight,
  Link2,
  MapPin,
  MapPinOff,
  PackageOpen,
  Search,
  Signal,
  SignalHigh,
  SignalLow,
  SignalMedium,
  Unlink,
} from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Select } from "../../../ui/select.tsx";
import { Spinner } from "../../../ui/spinner.tsx";
import { CellCredential } from "./cell-credential-actions.tsx";
import { StockActions } from "./cell-onboarding-dialogs.tsx";
import {
  type CellCategory,
  type CellMapping,
  cellsApi,
  type FeederMapping,
  type SetupCell,
  type Validation,
} from "./cells-api.ts";
import {
  BUTTON_LOADING_DELAY_MS,
  customMessageRule,
  feederMappingRule,
  type Phase,
  phaseEnabled,
  PHASES,
  SEARCH_DELAY_MS,
  setPhase,
} from "./cells-rules.ts";
import { useFormatters } from "../../../lib/use-formatters.ts";

const SETUP_KEY = "hes:infrastructure-setup";
const LISTS: readonly CellCategory[] = ["WAITING_FOR_INSTALLATION", "IN_STOCK", "INSTALLED"];

/** Admins of the infrastructure setup (and super-admins) change cells. */
function useCanWrite(): boolean {
  const { claims } = useSession();
  return isAdminOf(claims.appsRoles, SETUP_KEY) || claims.role === "super-admin";
}

/** `value` once it has not changed for `delay` ms. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** True once `active` has lasted `delay` ms (button loading delay of spec 9). */
function useDelayed(active: boolean, delay = BUTTON_LOADING_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) return setShown(false);
    const timer = window.setTimeout(() => setShown(true), delay);
    return () => window.clearTimeout(timer);
  }, [active, delay]);
  return shown;
}

/** The cells tab. */
export function CellsTab() {
  const { t } = useTranslation("cells");
  const canWrite = useCanWrite();
  const [query, setQuery] = useState("");
  const search = useDebounced(query.trim(), SEARCH_DELAY_MS);
  const [selected, setSelected] = useState<SetupCell | null>(null);
  const [version, setVersion] = useState(0);
  const changed = (cell: SetupCell | null) => {
    setSelected(cell);
    setVersion((v) => v + 1);
  };
  /** New cells: the lists reload; a single new cell opens in the detail. */
  const registered = async (cellIds: string[]) => {
    if (cellIds.length !== 1) return setVersion((v) => v + 1);
    changed(await cellsApi.get(cellIds[0]!).catch(() => selected));
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <div className="flex min-w-0 flex-col gap-4">
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-2 left-2.5 size-4 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label={t("search.label")}
            placeholder={t("search.placeholder")}
            value={query}
            maxLength={60}
            onChange={(e) => setQuery(e.target.value)}
            className="pl-8"
          />
        </div>
        {search
          ? (
            <SearchResults
              query={search}
              version={version}
              selectedId={selected?.id ?? null}
              onSelect={setSelected}
            />
          )
          : LISTS.map((category) => (
            <CellList
              key={category}
              category={category}
              version={version}
              selectedId={selected?.id ?? null}
              onSelect={setSelected}
              actions={category === "IN_STOCK" && canWrite
                ? <StockActions onRegistered={(ids) => void registered(ids)} />
                : null}
            />
          ))}
      </div>
      <div className="min-w-0">
        {selected
          ? (
            <CellDetail
              key={selected.id}
              cell={selected}
              onChanged={changed}
              onClose={() => setSelected(null)}
            />
          )
          : (
            <div className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
              {t("detail.choose")}
            </div>
          )}
      </div>
    </div>
  );
}

function Section(
  { title, count, children, footer, actions }: {
    title: string;
    count?: number;
    children: ReactNode;
    footer?: ReactNode;
    actions?: ReactNode;
  },
) {
  return (
    <section className="rounded-lg border bg-surface" aria-label={title}>
      <header className="flex items-center justify-between gap-2 border-b px-3 py-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <div className="flex items-center gap-2">
          {actions}
          {count !== undefined
            ? <span className="text-xs text-muted-foreground">{count}</span>
            : null}
        </div>
      </header>
      {children}
      {footer}
    </section>
  );
}

function CellList({ category, version, selectedId, onSelect, actions }: {
  category: CellCategory;
  version: number;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
  actions?: ReactNode;
}) {
  const { t } = useTranslation("cells");
  const [page, setPage] = useState(1);
  const state = useAsync((signal) => cellsApi.list(category, page, signal), [
    category,
    page,
    version,
  ]);
  const data = state.status === "success" ? state.data : null;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  return (
    <Section
      title={t(`lists.${category}`)}
      actions={actions}
      {...(data ? { count: data.total } : {})}
      footer={data && data.total > data.page_size
        ? (
          <div className="flex items-center justify-end gap-2 border-t px-3 py-1.5 text-xs text-muted-foreground">
            <span>
              {t("pager.range", {
                from: (page - 1) * data.page_size + 1,
                to: Math.min(page * data.page_size, data.total),
                total: data.total,
              })}
            </span>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("pager.previous")}
              disabled={page <= 1}
              onClick={() => setPage((p) => p - 1)}
            >
              <ChevronLeft />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("pager.next")}
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
            >
              <ChevronRight />
            </Button>
          </div>
        )
        : null}
    >
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <CellRows
            cells={state.data.items}
            empty={t(`empty.${category}`)}
            selectedId={selectedId}
            onSelect={onSelect}
          />
        )}
    </Section>
  );
}

function SearchResults({ query, version, selectedId, onSelect }: {
  query: string;
  version: number;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const state = useAsync((signal) => cellsApi.search(query, signal), [query, version]);
  return (
    <Section title={t("search.results")}>
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <CellRows
            cells={state.data}
            empty={t("search.none")}
            selectedId={selectedId}
            onSelect={onSelect}
          />
        )}
    </Section>
  );
}

function CellRows({ cells, empty, selectedId, onSelect }: {
  cells: SetupCell[];
  empty: string;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
}) {
  if (!cells.length) return <p className="px-3 py-4 text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="divide-y">
      {cells.map((cell) => (
        <li key={cell.id}>
          <button
            type="button"
            onClick={() => onSelect(cell)}
            aria-current={cell.id === selectedId ? "true" : undefined}
            className={cn(
              "flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring",
              cell.id === selectedId && "bg-accent",
            )}
          >
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="truncate text-sm font-medium">{cell.serial_number}</span>
              <span className="truncate text-xs text-muted-foreground">
                {cell.node?.name ?? cell.id}
                {cell.custom_message ? ` · ${cell.custom_message}` : ""}
              </span>
            </div>
            <Indicators cell={cell} />
            {/* A cell in stock has never been installed: its place says more than its status. */}
            <StatusBadge label={cell.type === "IN_STOCK" ? "inStock" : cell.status_label} />
          </button>
        </li>
      ))}
    </ul>
  );
}

const TONES: Record<string, string> = {
  connected: "bg-state-ok-soft text-state-ok",
  configured: "bg-state-ok-soft text-state-ok",
  disconnected: "bg-state-offline-soft text-state-offline",
  issue: "bg-state-critical-soft text-state-critical",
  mappingNotValid: "bg-state-critical-soft text-state-critical",
  failedOrSkipped: "bg-state-warning-soft text-state-warning",
  notSynchronized: "bg-state-warning-soft text-state-warning",
  notCompleted: "bg-state-warning-soft text-state-warning",
  toBeConfigured: "bg-state-warning-soft text-state-warning",
};

/** A status with the display label of spec 4 (the key comes from the server). */
function StatusBadge({ label }: { label: string }) {
  const { t } = useTranslation("cells");
  return (
    <span
      className={cn(
        "shrink-0 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        TONES[label] ?? "bg-state-unknown-soft text-foreground",
      )}
    >
      {t(`status.${label}`)}
    </span>
  );
}

const GSM_ICONS: Record<string, ReactNode> = {
  EXCELLENT: <Signal aria-hidden className="size-4 text-state-ok" />,
  GOOD: <SignalHigh aria-hidden className="size-4 text-state-ok" />,
  FAIR: <SignalMedium aria-hidden className="size-4 text-state-warning" />,
  POOR: <SignalLow aria-hidden className="size-4 text-state-critical" />,
};

/** GPS fix and GSM signal quality (spec 4). */
function Indicators({ cell }: { cell: SetupCell }) {
  const { t } = useTranslation("cells");
  const gps = cell.gps_fix ?? "unknown";
  const gsm = cell.gsm_signal ?? "unknown";
  const fixed = gps !== "NO_SIGNAL" && gps !== "unknown";
  return (
    <span className="flex shrink-0 items-center gap-1.5">
      <span title={t(`gps.${gps}`)} aria-label={t(`gps.${gps}`)} role="img">
        {fixed
          ? <MapPin aria-hidden className="size-4 text-state-ok" />
          : <MapPinOff aria-hidden className="size-4 text-muted-foreground" />}
      </span>
      <span
        title={t("gsm.label", { quality: t(`gsm.${gsm}`) })}
        aria-label={t("gsm.label", { quality: t(`gsm.${gsm}`) })}
        role="img"
      >
        {GSM_ICONS[gsm] ?? <Signal aria-hidden className="size-4 text-muted-foreground/40" />}
      </span>
    </span>
  );
}

function CellDetail({ cell, onChanged, onClose }: {
  cell: SetupCell;
  onChanged: (cell: SetupCell | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const format = useFormatters();
  const canWrite = useCanWrite();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [linking, setLinking] = useState(false);
  const [unlinking, setUnlinking] = useState(false);
  const run = async (action: () => Promise<SetupCell>) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await action());
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  const date = (iso: string | null) => iso ? format.dateTime(iso) : t("detail.never");

  return (
    <section
      className="flex flex-col gap-4 rounded-lg border bg-surface p-4"
      aria-label={t("detail.title", { serial: cell.serial_number })}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold">
            {t("detail.title", { serial: cell.serial_number })}
          </h2>
          <p className="text-xs text-muted-foreground">{t(`lists.${cell.type}`)}</p>
        </div>
        <div className="flex items-center gap-2">
          <Indicators cell={cell} />
          <StatusBadge label={cell.status_label} />
          <Button variant="ghost" size="sm" onClick={onClose}>{t("actions.close")}</Button>
        </div>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <Fact label={t("detail.cellId")} value={cell.id} />
        <Fact label={t("detail.model")} value={cell.device_model} />
        <Fact label={t("detail.firmware")} value={cell.firmware ?? "–"} />
        <Fact label={t("detail.provisioned")} value={date(cell.provisioning_date)} />
        <Fact label={t("detail.lastSeen")} value={date(cell.last_seen)} />
        <Fact label={t("detail.connection")} value={t(`status.${cell.connection.toLowerCase()}`)} />
        {cell.node ? <Fact label={t("detail.node")} value={cell.node.name} /> : null}
        <Fact label={t("detail.mapping")} value={t(`status.${cell.mapping_status_label}`)} />
      </dl>

      <CellCredential cell={cell} canWrite={canWrite} onChanged={onChanged} />

      <MessageEditor cell={cell} canWrite={canWrite} onChanged={onChanged} />

      {canWrite
        ? (
          <div className="flex flex-wrap gap-2">
            {cell.type === "IN_STOCK"
              ? (
                <Button disabled={busy} onClick={() => run(() => cellsApi.takeFromStock(cell.id))}>
                  <PackageOpen />
                  {t("actions.takeFromStock")}
                </Button>
              )
              : null}
            {cell.type === "WAITING_FOR_INSTALLATION"
              ? (
                <Button disabled={busy} onClick={() => setLinking(true)}>
                  <Link2 />
                  {t("actions.link")}
                </Button>
              )
              : null}
            {cell.type === "INSTALLED"
              ? (
                <Button variant="secondary" disabled={busy} onClick={() => setUnlinking(true)}>
                  <Unlink />
                  {t("actions.unlink")}
                </Button>
              )
              : null}
          </div>
        )
        : <p className="text-xs text-muted-foreground">{t("detail.readOnly")}</p>}
      {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}

      {cell.type === "INSTALLED"
        ? <MappingEditor cell={cell} canWrite={canWrite} onChanged={onChanged} />
        : null}

      {linking
        ? (
          <LinkDialog
            cell={cell}
            onClose={() => setLinking(false)}
            onLinked={(linked) => {
              setLinking(false);
              onChanged(linked);
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={unlinking}
        onOpenChange={setUnlinking}
        title={t("unlink.title", { serial: cell.serial_number })}
        description={t("unlink.description")}
        confirmLabel={t("unlink.confirm")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          setUnlinking(false);
          void run(() => cellsApi.unlink(cell.id));
        }}
      />
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate">{value}</dd>
    </div>
  );
}

function MessageEditor({ cell, canWrite, onChanged }: {
  cell: SetupCell;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [text, setText] = useState(cell.custom_message ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rule = customMessageRule(text);
  const save = async (message: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const saved = await cellsApi.setMessage(cell.id, message);
      setText(saved.custom_message ?? "");
      onChanged(saved);
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!rule) void save(text.trim() ? text : null);
      }}
    >
      <FormField
        label={t("message.label")}
        className="flex-1"
        error={rule ? t(`errors:${rule.key}`, rule.params ?? {}) : error}
      >
        {(props) => (
          <Input
            {...props}
            value={text}
            readOnly={!canWrite}
            placeholder={t("message.placeholder")}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </FormField>
      {canWrite
        ? (
          <>
            <Button
              type="submit"
              variant="secondary"
              disabled={busy || Boolean(rule) || text === (cell.custom_message ?? "")}
            >
              {t("actions.save")}
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={busy || !cell.custom_message}
              onClick={() => void save(null)}
            >
              {t("actions.clear")}
            </Button>
          </>
        )
        : null}
    </form>
  );
}

function LinkDialog({ cell, onClose, onLinked }: {
  cell: SetupCell;
  onClose: () => void;
  onLinked: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const errorText = useErrorText();
  const nodes = useAsync(() => cellsApi.linkableNodes(), []);
  const [nodeId, setNodeId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options = nodes.status === "success"
    ? nodes.data.filter((n) => n.compatible && !n.cell_id).map((n) => ({
      value: n.id,
      label: `${n.name} · ${n.lv_group_name}`,
    }))
    : [];
  const unavailable = nodes.status === "success"
    ? nodes.data.filter((n) => !n.compatible || n.cell_id)
    : [];
  const link = async () => {
    if (!nodeId) return;
    setBusy(true);
    setError(null);
    try {
      onLinked(await cellsApi.link(cell.id, nodeId));
    } catch (e) {
      setError(errorText(e).text);
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("link.title", { serial: cell.serial_number })}</DialogTitle>
          <DialogDescription>{t("link.description")}</DialogDescription>
        </DialogHeader>
        {cell.connection === "DISCONNECTED"
          ? <p className="text-sm text-state-warning">{t("link.disconnected")}</p>
          : null}
        {nodes.status === "loading"
          ? <Loader />
          : nodes.status === "error"
          ? <LoadError onRetry={nodes.reload} />
          : (
            <div className="flex flex-col gap-3">
              <FormField label={t("link.node")} error={error}>
                {(props) => (
                  <Select
                    {...props}
                    value={nodeId}
                    onValueChange={setNodeId}
                    options={options}
                    placeholder={options.length ? t("link.choose") : t("link.noneFree")}
                    disabled={!options.length}
                  />
                )}
              </FormField>
              {unavailable.length
                ? (
                  <details className="text-xs text-muted-foreground">
                    <summary className="cursor-pointer">
                      {t("link.unavailable", { count: unavailable.length })}
                    </summary>
                    <ul className="mt-1 flex max-h-40 flex-col gap-0.5 overflow-auto">
                      {unavailable.map((n) => (
                        <li key={n.id}>
                          {n.name} – {n.compatible ? t("link.taken") : t("link.incompatible")}
                        </li>
                      ))}
                    </ul>
                  </details>
                )
                : null}
            </div>
          )}
        <DialogFooter>
          <Button variant="secondary" onClick={onClose}>{t("actions.cancel")}</Button>
          <Button disabled={!nodeId || busy} onClick={() => void link()}>
            {t("link.confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function MappingEditor({ cell, canWrite, onChanged }: {
  cell: SetupCell;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const state = useAsync(() => cellsApi.mapping(cell.id), [cell.id]);
  return (
    <section className="flex flex-col gap-3 border-t pt-4" aria-label={t("mapping.title")}>
      <div>
        <h3 className="text-sm font-semibold">{t("mapping.title")}</h3>
        <p className="text-xs text-muted-foreground">{t("mapping.description")}</p>
      </div>
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <MappingForm
            cellId={cell.id}
            initial={state.data}
            canWrite={canWrite}
            onChanged={onChanged}
          />
        )}
    </section>
  );
}

function MappingForm({ cellId, initial, canWrite, onChanged }: {
  cellId: string;
  initial: CellMapping;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [mapping, setMapping] = useState(initial);
  const [feeders, setFeeders] = useState<FeederMapping[]>(initial.feeders);
  const [saving, setSaving] = useState(false);
  const [validating, setValidating] = useState(false);
  const [notice, setNotice] = useState<{ tone: "ok" | "warning" | "error"; text: string } | null>(
    null,
  );
  const [validation, setValidation] = useState<Validation | null>(initial.validation);
  const spinner = useDelayed(validating);
  const dirty = JSON.stringify(feeders) !== JSON.stringify(mapping.feeders);
  const rules = feeders.map((f) => feederMappingRule(f.phases, f.mv_estimation));
  const mappedAny = feeders.some((f) => f.phases.L1 !== null);

  const update = (feederId: string, phase: Phase, probe: number | null) =>
    setFeeders((list) =>
      list.map((f) => (f.id === feederId ? { ...f, phases: setPhase(f.phases, phase, probe) } : f))
    );

  const save = async () => {
    setSaving(true);
    setNotice(null);
    try {
      const saved = await cellsApi.saveMapping(
        cellId,
        feeders.flatMap((f) =>
          PHASES.flatMap((phase) => {
            const probe = f.phases[phase];
            return probe === null
              ? []
              : [{ node_id: mapping.node_id, feeder_id: f.id, probe, phase }];
          })
        ),
      );
      setMapping(saved.mapping);
      setFeeders(saved.mapping.feeders);
      onChanged(await cellsApi.get(cellId));
      setValidation(null);
      setNotice(
        saved.delivery.state === "FAILED"
          ? { tone: "warning", text: `${t("errors:mapping.sendFailed")} ${t("mapping.notSent")}` }
          : { tone: "ok", text: t("mapping.saved") },
      );
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    } finally {
      setSaving(false);
    }
  };

  const validate = async () => {
    setValidating(true);
    setNotice(null);
    try {
      setValidation(await cellsApi.validate(cellId));
      onChanged(await cellsApi.get(cellId));
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    } finally {
      setValidating(false);
    }
  };

  const decide = async (action: "confirm" | "ignore") => {
    setNotice(null);
    try {
      onChanged(await cellsApi[action](cellId));
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    }
  };

  if (!feeders.length) {
    return <p className="text-sm text-muted-foreground">{t("mapping.noFeeders")}</p>;
  }
  const probeOptions = [
    { value: "0", label: t("mapping.notMapped") },
    ...[1, 2, 3, 4].map((probe) => ({
      value: String(probe),
      label: t("mapping.probe", { probe }),
    })),
  ];
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-muted-foreground">
        {mapping.synchronized
          ? t("mapping.synchronized", { version: mapping.version })
          : mappedAny
          ? t("mapping.pending", { version: mapping.version })
          : t("status.toBeConfigured")}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-muted-foreground">
              <th className="py-1 pr-2 font-medium">{t("mapping.feederColumn")}</th>
              {PHASES.map((phase) => <th key={phase} className="px-1 py-1 font-medium">{phase}
              </th>)}
            </tr>
          </thead>
          <tbody>
            {feeders.map((f, k) => (
              <tr key={f.id} className="border-t align-top">
                <td className="py-1.5 pr-2">
                  <div className="font-medium">
                    {t("mapping.feeder", { slot: f.slot, name: f.name })}
                  </div>
                  {f.mv_estimation
                    ? (
                      <div className="text-xs text-muted-foreground">
                        {t("mapping.mvEstimation")}
                      </div>
                    )
                    : null}
                  {rules[k]
                    ? (
                      <div role="alert" className="text-xs text-state-critical">
                        {t(`errors:${rules[k].key}`)}
                      </div>
                    )
                    : null}
                </td>
                {PHASES.map((phase) => (
                  <td key={phase} className="min-w-30 px-1 py-1.5">
                    <Select
                      aria-label={t("mapping.phaseOf", { phase, feeder: f.name })}
                      className="whitespace-nowrap"
                      value={String(f.phases[phase] ?? 0)}
                      options={probeOptions}
                      disabled={!canWrite || !phaseEnabled(f.phases, phase)}
                      onValueChange={(v) => update(f.id, phase, v === "0" ? null : Number(v))}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canWrite
        ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              disabled={!dirty || saving || rules.some(Boolean) ||
                !feeders.some((f) => f.phases.L1)}
              onClick={() => void save()}
            >
              {t("mapping.save")}
            </Button>
            <Button
              disabled={validating || dirty || !mappedAny}
              onClick={() => void validate()}
            >
              {spinner ? <Spinner className="size-4 text-primary-foreground" /> : null}
              {spinner ? t("mapping.validating") : t("mapping.validate")}
            </Button>
          </div>
        )
        : null}
      {notice
        ? (
          <p
            role={notice.tone === "ok" ? "status" : "alert"}
            className={cn(
              "text-sm",
              notice.tone === "ok" && "text-state-ok",
              notice.tone === "warning" && "text-state-warning",
              notice.tone === "error" && "text-state-critical",
            )}
          >
            {notice.text}
          </p>
        )
        : null}
      {validation
        ? (
          <VerdictPanel
            validation={validation}
            feeders={feeders}
            canWrite={canWrite}
            onDecide={(a) => void decide(a)}
          />
        )
        : null}
    </div>
  );
}

const VERDICT_TONES: Record<string, string> = {
  CORRECT: "border-state-ok bg-state-ok-soft",
  TIMEOUT: "border-state-warning bg-state-warning-soft",
  NOT_ENOUGH_MEASUREMENTS: "border-state-warning bg-state-warning-soft",
};

/** The validation result: the spec's message, the certainty and the fix per feeder. */
function VerdictPanel({ validation, feeders, canWrite, onDecide }: {
  validation: Validation;
  feeders: FeederMapping[];
  canWrite: boolean;
  onDecide: (action: "confirm" | "ignore") => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const conclusive = validation.verdict === "CORRECT" ||
    !["TIMEOUT", "NOT_ENOUGH_MEASUREMENTS", "ALL_ZERO", "TWO_PHASES_ZERO"].includes(
      validation.verdict,
    );
  return (
    <div
      role="status"
      aria-label={t("mapping.verdictTitle")}
      className={cn(
        "flex flex-col gap-2 rounded-md border-l-4 p-3",
        VERDICT_TONES[validation.verdict] ?? "border-state-critical bg-state-critical-soft",
      )}
    >
      <p className="text-sm font-medium">{t(`errors:${validation.message_key}`)}</p>
      <p className="text-xs text-muted-foreground">
        {t(`mapping.certainty.${validation.certainty}`)}
      </p>
      {validation.feeders.length === 1
        ? <FeederAdvice result={validation.feeders[0]!} />
        : (
          <ul className="flex flex-col gap-1 text-xs">
            {validation.feeders.map((f) => (
              <li key={f.feeder_id}>
                <span className="font-medium">
                  {t("mapping.feeder", {
                    slot: f.slot,
                    name: feeders.find((x) => x.id === f.feeder_id)?.name ?? "",
                  })}
                </span>
                {": "}
                {t(`errors:${f.message_key}`)} <FeederAdvice result={f} inline />
              </li>
            ))}
          </ul>
        )}
      {canWrite && conclusive
        ? (
          <div className="flex gap-2">
            {validation.verdict === "CORRECT"
              ? (
                <Button size="sm" onClick={() => onDecide("confirm")}>
                  {t("mapping.confirm")}
                </Button>
              )
              : (
                <Button size="sm" variant="secondary" onClick={() => onDecide("ignore")}>
                  {t("mapping.ignore")}
                </Button>
              )}
          </div>
        )
        : null}
    </div>
  );
}

/** What to change for one feeder's verdict, and what the first measurements suggest. */
function FeederAdvice(
  { result, inline = false }: { result: Validation["feeders"][number]; inline?: boolean },
) {
  const { t } = useTranslation("cells");
  const hint = t(`mapping.hint.${result.verdict}`, { defaultValue: "" });
  const likely = result.likely
    ? t("mapping.likely", { verdict: t(`mapping.verdicts.${result.likely}`) })
    : "";
  const text = [hint, likely].filter(Boolean).join(" ");
  if (!text) return null;
  return inline ? <span>{text}</span> : <p className="text-sm">{text}</p>;
}
