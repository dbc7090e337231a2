/**
 * Map layer upload (spec 5): .kml, .json or .geojson files of at most 10 MB, checked here before
 * sending and again on the server; uploaded layers are listed and can be deleted.
 */
import { Layers, Trash2, Upload } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { gridApi, type MapLayer, uploadMapLayer } from "../structure/grid-api.ts";

export const MAP_LAYER_MAX_BYTES = 10 * 1024 * 1024;
export const MAP_LAYER_ACCEPT = ".kml,.json,.geojson";

/** The errors-namespace message of a file the server would refuse, or null. */
export function mapLayerFileMessage(file: { name: string; size: number }) {
  if (!/\.(kml|json|geojson)$/i.test(file.name)) return { key: "validation.mapLayerFileType" };
  if (file.size > MAP_LAYER_MAX_BYTES) {
    return { key: "validation.fileTooLarge", params: { size: 10 } };
  }
  return null;
}

export function MapLayersDialog({
  open,
  onOpenChange,
  layers,
  canEdit,
  onChanged,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  layers: readonly MapLayer[];
  canEdit: boolean;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation(["infrastructure", "errors"]);
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<MapLayer | null>(null);
  const size = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });

  const upload = async (file: File) => {
    const refused = mapLayerFileMessage(file);
    if (refused) {
      setMessage(t(`errors:${refused.key}`, refused.params ?? {}));
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await uploadMapLayer(file);
      onChanged();
    } catch (error) {
      setMessage(errorText(error).text);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(36rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("mapLayers.title")}</DialogTitle>
          <DialogDescription>{t("mapLayers.description")}</DialogDescription>
        </DialogHeader>
        {layers.length
          ? (
            <ul className="divide-y rounded-md border">
              {layers.map((layer) => (
                <li key={layer.id} className="flex items-center gap-3 px-3 py-2">
                  <Layers aria-hidden className="size-4 text-muted-foreground" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{layer.name}</p>
                    <p className="text-xs text-muted-foreground">
                      {t("mapLayers.meta", {
                        format: layer.format,
                        count: layer.feature_count,
                        size: size.format(layer.size_bytes / 1024),
                      })}
                    </p>
                  </div>
                  {canEdit
                    ? (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t("actions.deleteNamed", { name: layer.name })}
                        onClick={() => setToDelete(layer)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    )
                    : null}
                </li>
              ))}
            </ul>
          )
          : <p className="text-sm text-muted-foreground">{t("mapLayers.empty")}</p>}
        {message ? <p role="alert" className="text-sm text-state-critical">{message}</p> : null}
        {canEdit
          ? (
            <div className="flex items-center justify-between gap-3">
              <p className="text-xs text-muted-foreground">{t("mapLayers.limits")}</p>
              <input
                ref={input}
                type="file"
                accept={MAP_LAYER_ACCEPT}
                className="sr-only"
                aria-label={t("mapLayers.file")}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) void upload(file);
                }}
              />
              <Button disabled={busy} onClick={() => input.current?.click()}>
                <Upload aria-hidden />
                {t("mapLayers.upload")}
              </Button>
            </div>
          )
          : null}
        <ConfirmDialog
          open={toDelete !== null}
          onOpenChange={(o) => !o && setToDelete(null)}
          title={t("confirm.title", { name: toDelete?.name ?? "" })}
          description={t("errors:validation.deleteConfirm")}
          confirmLabel={t("errors:validation.deleteConfirmButton")}
          cancelLabel={t("actions.cancel")}
          onConfirm={() => {
            const layer = toDelete;
            setToDelete(null);
            if (!layer) return;
            gridApi.deleteMapLayer(layer.id).then(onChanged, (error) =>
              setMessage(errorText(error).text));
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
