/**
 * Cell onboarding from "Cells in stock": register one cell by serial number, device model and
 * list, or import a CSV of serial numbers. The server's rules (modules/grid/contract.ts) are
 * checked here before sending and again on the server; the issued credentials are shown once
 * (CredentialDialog).
 */
import { FileUp, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DEVICE_MODELS,
  type DeviceModel,
  IMPORT_MAX_CHARS,
  normalizeSerialNumber,
  parseCellCsv,
  REGISTRATION_TYPES,
  type RegistrationType,
  serialNumberRule,
} from "../../../../../modules/grid/contract.ts";
import { ApiError } from "../../../lib/api.ts";
import { fieldIssuesOf, type FieldMessage, serverErrors } from "../../../lib/field-errors.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
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
import { Notice } from "../../../ui/notice.tsx";
import { Select } from "../../../ui/select.tsx";
import { CredentialDialog } from "./cell-credential-dialog.tsx";
import { type CellCredentialDto, cellsApi } from "./cells-api.ts";

/** One problem of an import, by line (null: the whole file). */
interface LineMessage extends FieldMessage {
  line: number | null;
}

/** The device model and target list selects shared by both dialogs. */
function ModelAndList({ model, list, onModel, onList, modelLabel }: {
  model: DeviceModel;
  list: RegistrationType;
  onModel: (model: DeviceModel) => void;
  onList: (list: RegistrationType) => void;
  modelLabel: string;
}) {
  const { t } = useTranslation("cells");
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <FormField label={modelLabel}>
        {(props) => (
          <Select
            {...props}
            value={model}
            onValueChange={(v) => onModel(v as DeviceModel)}
            options={DEVICE_MODELS.map((m) => ({ value: m, label: m }))}
          />
        )}
      </FormField>
      <FormField label={t("onboarding.list")}>
        {(props) => (
          <Select
            {...props}
            value={list}
            onValueChange={(v) => onList(v as RegistrationType)}
            options={REGISTRATION_TYPES.map((type) => ({
              value: type,
              label: t(`lists.${type}`),
            }))}
          />
        )}
      </FormField>
    </div>
  );
}

function RegisterDialog({ onClose, onIssued }: {
  onClose: () => void;
  onIssued: (issued: CellCredentialDto[]) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [serial, setSerial] = useState("");
  const [model, setModel] = useState<DeviceModel>("GW4");
  const [list, setList] = useState<RegistrationType>("IN_STOCK");
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [server, setServer] = useState<{ serial?: FieldMessage; form?: string }>({});
  const rule = serialNumberRule(normalizeSerialNumber(serial));
  const shown = (touched ? rule : null) ?? server.serial ?? null;

  const submit = async () => {
    setTouched(true);
    if (rule) return;
    setBusy(true);
    setServer({});
    try {
      onIssued([
        await cellsApi.register({ serial_number: serial, device_model: model, type: list }),
      ]);
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const placed = serverErrors(body, {
        field: (path) => (path === "serial_number" ? "serial" : null),
        keyField: (key) => (key === "setup.cellSerialExists" ? "serial" : null),
      });
      setServer({
        ...(placed.fields.serial ? { serial: placed.fields.serial } : {}),
        ...(placed.form ? { form: errorText(error).text } : {}),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("onboarding.registerTitle")}</DialogTitle>
          <DialogDescription>{t("onboarding.registerDescription")}</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <FormField
            label={t("onboarding.serial")}
            hint={t("onboarding.serialHint")}
            error={shown ? t(`errors:${shown.key}`, shown.params ?? {}) : null}
          >
            {(props) => (
              <Input
                {...props}
                autoFocus
                value={serial}
                maxLength={160}
                autoComplete="off"
                spellCheck={false}
                onBlur={() => serial && setTouched(true)}
                onChange={(e) => {
                  setSerial(e.target.value);
                  setServer({});
                }}
              />
            )}
          </FormField>
          <ModelAndList
            model={model}
            list={list}
            onModel={setModel}
            onList={setList}
            modelLabel={t("onboarding.model")}
          />
          {server.form ? <Notice tone="critical">{server.form}</Notice> : null}
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={busy || Boolean(touched && rule)}>
              {t("onboarding.submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The field errors of a refused import as problems by line (`csv.<line>`). */
function lineMessages(error: unknown): LineMessage[] {
  const body = error instanceof ApiError ? error.body : null;
  return fieldIssuesOf(body).map((issue) => {
    const line = /^csv\.(\d+)$/.exec(issue.path)?.[1];
    return { key: issue.key, params: issue.params, line: line ? Number(line) : null };
  });
}

function ImportDialog({ onClose, onIssued }: {
  onClose: () => void;
  onIssued: (issued: CellCredentialDto[]) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [text, setText] = useState<string | null>(null);
  const [model, setModel] = useState<DeviceModel>("GW4");
  const [list, setList] = useState<RegistrationType>("IN_STOCK");
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<LineMessage[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const tooLarge = text !== null && text.length > IMPORT_MAX_CHARS;
  const parsed = text === null || tooLarge ? null : parseCellCsv(text, model);
  const problems: LineMessage[] = tooLarge
    ? [{ key: "validation.csvTooLarge", params: { count: IMPORT_MAX_CHARS }, line: null }]
    : parsed
    ? [...parsed.problems, ...refused]
    : refused;
  const ready = parsed && !problems.length ? parsed.cells.length : 0;

  const choose = async (file: File | undefined) => {
    setRefused([]);
    setFailure(null);
    if (!file) return;
    // A file far beyond the limit is not read whole into the page.
    setText(
      file.size > IMPORT_MAX_CHARS * 4 ? "x".repeat(IMPORT_MAX_CHARS + 1) : await file.text(),
    );
  };
  const submit = async () => {
    if (!text || !ready) return;
    setBusy(true);
    setFailure(null);
    try {
      onIssued((await cellsApi.importCsv({ csv: text, device_model: model, type: list })).cells);
    } catch (error) {
      const lines = lineMessages(error);
      setRefused(lines);
      if (!lines.length) setFailure(errorText(error).text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="w-[min(38rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("onboarding.importTitle")}</DialogTitle>
          <DialogDescription>{t("onboarding.importDescription")}</DialogDescription>
        </DialogHeader>
        <FormField label={t("onboarding.file")}>
          {(props) => (
            <Input
              {...props}
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              className="py-1"
              onChange={(e) => void choose(e.target.files?.[0])}
            />
          )}
        </FormField>
        <ModelAndList
          model={model}
          list={list}
          onModel={(m) => {
            setModel(m);
            setRefused([]);
          }}
          onList={setList}
          modelLabel={t("onboarding.defaultModel")}
        />
        {problems.length
          ? (
            <Notice tone="critical" data-testid="import-problems">
              <p>{t("onboarding.problems")}</p>
              <ul className="mt-1 max-h-40 list-disc overflow-auto pl-5 text-xs">
                {problems.map((p, k) => (
                  <li key={k}>
                    {p.line !== null ? `${t("onboarding.line", { line: p.line })}: ` : ""}
                    {t(`errors:${p.key}`, p.params ?? {})}
                  </li>
                ))}
              </ul>
            </Notice>
          )
          : ready
          ? <Notice tone="ok">{t("onboarding.ready", { count: ready })}</Notice>
          : null}
        {failure ? <Notice tone="critical">{failure}</Notice> : null}
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={onClose}>
            {t("actions.cancel")}
          </Button>
          <Button type="button" disabled={busy || !ready} onClick={() => void submit()}>
            {ready ? t("onboarding.submitImport", { count: ready }) : t("onboarding.submit")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The "Register cell" and "Import CSV" buttons of "Cells in stock" with their dialogs;
 * `onRegistered` gets the new cells' ids once their credentials were shown.
 */
export function StockActions({ onRegistered }: { onRegistered: (cellIds: string[]) => void }) {
  const { t } = useTranslation("cells");
  const [open, setOpen] = useState<"register" | "import" | null>(null);
  const [issued, setIssued] = useState<CellCredentialDto[] | null>(null);
  const show = (cells: CellCredentialDto[]) => {
    setOpen(null);
    setIssued(cells);
  };
  return (
    <div className="flex items-center gap-1">
      <Button size="sm" variant="ghost" onClick={() => setOpen("register")}>
        <Plus />
        {t("onboarding.register")}
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen("import")}>
        <FileUp />
        {t("onboarding.import")}
      </Button>
      {open === "register"
        ? <RegisterDialog onClose={() => setOpen(null)} onIssued={show} />
        : null}
      {open === "import" ? <ImportDialog onClose={() => setOpen(null)} onIssued={show} /> : null}
      {issued
        ? (
          <CredentialDialog
            issued={issued}
            onClose={() => {
              setIssued(null);
              onRegistered(issued.map((c) => c.cell_id));
            }}
          />
        )
        : null}
    </div>
  );
}
