import { Pencil, Plus, Radio, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileDto, StatusDto } from "../../../../modules/scada/contract.ts";
import { api } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Switch } from "../../ui/switch.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Toast } from "../../ui/toast.tsx";
import { PointsPanel } from "./points-panel.tsx";
import { ProfileDialog } from "./profile-dialog.tsx";

/**
 * /scada-connector (administrators of the connector): the connector's state (listeners, the
 * masters connected with their address and since when, frames, last error, refreshed every
 * 30 s), the profiles (one per SCADA master) and the points of the profile picked.
 */
export function ScadaConnectorPage() {
  const { t } = useTranslation(["modules", "scada", "errors"]);
  const state = useAsync((signal) => api.get<ProfileDto[]>("/scm/profiles", { signal }), []);
  const status = useLiveLoad(
    (signal) => api.get<StatusDto>("/scm/status", { signal }),
    "status",
    REFRESH_MS,
  );
  const [editing, setEditing] = useState<ProfileDto | "new" | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ProfileDto | null>(null);
  const [toast, setToast] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const errorText = useErrorText();
  const refresh = () => {
    state.reload();
    setTimeout(status.refresh, 300); // the listener opens after the save
  };
  const removing = useAction(async (profile: ProfileDto) => {
    try {
      await api.delete(`/scm/profiles/${profile.id}`, { handleErrors: true });
      setToast({ tone: "success", text: t("scada:form.deleted") });
      if (picked === profile.id) setPicked(null);
      refresh();
    } catch (error) {
      setToast({ tone: "error", text: errorText(error).text });
    }
  });
  const activating = useAction(async (profile: ProfileDto, activated: boolean) => {
    try {
      const { id: _, point_count: __, updated_at: ___, ...fields } = profile;
      await api.put(`/scm/profiles/${profile.id}`, { ...fields, activated }, {
        handleErrors: true,
      });
      refresh();
    } catch (error) {
      setToast({ tone: "error", text: errorText(error).text });
    }
  });

  return (
    <Page
      title={t("scada-connector.title")}
      subtitle={t("scada-connector.purpose")}
      actions={
        <Button onClick={() => setEditing("new")}>
          <Plus aria-hidden />
          {t("scada:profiles.new")}
        </Button>
      }
    >
      <ConnectorState status={status.data} />
      <AsyncState state={state} onRetry={state.reload}>
        {(profiles) => {
          const current = profiles.find((p) => p.id === picked) ?? null;
          return (
            <div className="grid gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
              <ProfileList
                profiles={profiles}
                picked={picked}
                onPick={setPicked}
                onEdit={setEditing}
                onDelete={setDeleting}
                onActivate={(p, on) => void activating.run(p, on)}
              />
              {current
                ? (
                  <PointsPanel
                    profile={current}
                    onChanged={(saved) => {
                      if (saved) setToast({ tone: "success", text: saved });
                      refresh();
                    }}
                  />
                )
                : null}
            </div>
          );
        }}
      </AsyncState>
      {editing
        ? (
          <ProfileDialog
            profile={editing === "new" ? null : editing}
            open
            onOpenChange={(open) => !open && setEditing(null)}
            onSaved={(saved) => {
              setEditing(null);
              setPicked(saved.id);
              setToast({ tone: "success", text: t("scada:form.saved") });
              refresh();
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("scada:profiles.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("errors:validation.deleteConfirm")}
        confirmLabel={t("errors:validation.deleteConfirmButton")}
        cancelLabel={t("scada:form.cancel")}
        onConfirm={() => {
          if (deleting) void removing.run(deleting);
          setDeleting(null);
        }}
      />
      <Toast
        open={toast !== null}
        onOpenChange={(open) => !open && setToast(null)}
        tone={toast?.tone ?? "success"}
      >
        {toast?.text}
      </Toast>
    </Page>
  );
}

function ConnectorState({ status }: { status: StatusDto | null }) {
  const { t } = useTranslation("scada");
  const { dateTime } = useFormatters();
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border bg-surface p-4"
      data-testid="scada-state"
    >
      <h2 className="text-sm font-semibold">{t("state.title")}</h2>
      {!status?.listeners.length
        ? <p className="text-sm text-muted-foreground">{t("state.noListeners")}</p>
        : (
          <ul className="grid gap-2 md:grid-cols-2">
            {status.listeners.map((l) => (
              <li key={l.profile_id} className="flex flex-col gap-1 rounded-md border p-3 text-sm">
                <div className="flex items-center gap-2">
                  <Radio aria-hidden className="size-4" />
                  <span className="font-medium">{l.name}</span>
                  <span className="text-muted-foreground">{t("state.port", { port: l.port })}</span>
                  <Badge tone={l.listening ? "ok" : "critical"}>
                    {l.listening ? t("state.listening") : t("state.notListening")}
                  </Badge>
                </div>
                {l.masters.length
                  ? l.masters.map((m) => (
                    <p key={`${m.address}:${m.port}`}>
                      {t("state.masters")}: {m.address}:{m.port} ·{" "}
                      {t("state.since", { time: dateTime(m.since) })} ·{" "}
                      {m.started ? t("state.started") : t("state.stopped")}
                    </p>
                  ))
                  : <p className="text-muted-foreground">{t("state.noMaster")}</p>}
                <p className="text-muted-foreground">
                  {t("state.frames")}: {l.frames_sent} / {l.frames_received}
                </p>
                <p className="text-muted-foreground">
                  {t("state.lastError")}: {l.last_error
                    ? `${l.last_error} (${dateTime(l.last_error_at ?? "")})`
                    : t("state.none")}
                </p>
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}

function ProfileList({ profiles, picked, onPick, onEdit, onDelete, onActivate }: {
  profiles: ProfileDto[];
  picked: string | null;
  onPick: (id: string) => void;
  onEdit: (p: ProfileDto) => void;
  onDelete: (p: ProfileDto) => void;
  onActivate: (p: ProfileDto, on: boolean) => void;
}) {
  const { t } = useTranslation("scada");
  return (
    <section className="flex flex-col gap-2 rounded-lg border bg-surface p-4">
      <h2 className="text-sm font-semibold">{t("profiles.title")}</h2>
      {profiles.length === 0
        ? <p className="text-sm text-muted-foreground">{t("profiles.empty")}</p>
        : (
          <Table data-testid="scada-profiles">
            <TableHead>
              <Row>
                <HeadCell>{t("fields.name")}</HeadCell>
                <HeadCell>{t("fields.ip_address")}</HeadCell>
                <HeadCell numeric>{t("fields.port")}</HeadCell>
                <HeadCell numeric>{t("fields.asdu")}</HeadCell>
                <HeadCell>{t("fields.activated")}</HeadCell>
                <HeadCell />
              </Row>
            </TableHead>
            <TableBody>
              {profiles.map((p) => (
                <Row key={p.id} className={p.id === picked ? "bg-surface-muted" : undefined}>
                  <Cell>
                    <Button
                      variant="link"
                      className="px-0"
                      onClick={() =>
                        onPick(p.id)}
                    >
                      {p.name}
                    </Button>
                    <div className="text-xs text-muted-foreground">
                      {t("profiles.pointCount", { count: p.point_count })}
                    </div>
                  </Cell>
                  <Cell>{p.ip_address}</Cell>
                  <Cell numeric>{p.port}</Cell>
                  <Cell numeric>{p.asdu}</Cell>
                  <Cell>
                    <Switch
                      checked={p.activated}
                      aria-label={t("fields.activated")}
                      onCheckedChange={(on) =>
                        onActivate(p, on)}
                    />
                  </Cell>
                  <Cell>
                    <div className="flex justify-end gap-1">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t("profiles.edit")}
                        onClick={() => onEdit(p)}
                      >
                        <Pencil aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t("profiles.delete")}
                        onClick={() => onDelete(p)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    </div>
                  </Cell>
                </Row>
              ))}
            </TableBody>
          </Table>
        )}
    </section>
  );
}
