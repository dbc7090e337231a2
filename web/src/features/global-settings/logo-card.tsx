import { ImageOff, Trash2, Upload } from "lucide-react";
import { type ChangeEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { useCustomerLogo } from "../../lib/customer-logo.ts";
import { checkLogoFile, RECOMMENDED_LOGO_SIDE } from "../../lib/settings-rules.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import { SettingsCard } from "./settings-card.tsx";
import type { LogoInfoDto } from "../../../../modules/customers/contract.ts";

/** What the logo call answers after an upload. */
type LogoInfo = LogoInfoDto;

/** Reads the pixel size of an image file in the browser, or null when it cannot be decoded. */
async function imageSize(file: File): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/**
 * The logo: preview, upload (JPEG or PNG, at most 3 MB, checked here and by content on the
 * server) and removal. Changes apply at once; `onChanged` passes the new ETag to the session.
 */
export function LogoCard({
  customerKey,
  etag,
  info,
  onChanged,
}: {
  customerKey: string;
  etag: string | null;
  info: LogoInfo | null;
  onChanged: (etag: string | null, info: LogoInfo | null) => void;
}) {
  const { t } = useTranslation(["settings", "errors"]);
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const preview = useCustomerLogo(customerKey, etag);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const path = `/csm/customers/${encodeURIComponent(customerKey)}`;

  const store = useAction(async (file: File) => {
    const form = new FormData();
    form.append("file", file);
    const saved = await api.put<LogoInfo>(`${path}/logo`, form, { handleErrors: true });
    const customer = await api.get<{ logo_etag: string | null }>(path, { handleErrors: true });
    onChanged(customer.logo_etag, saved);
    const size = await imageSize(file);
    if (size && (size.width !== RECOMMENDED_LOGO_SIDE || size.height !== RECOMMENDED_LOGO_SIDE)) {
      setNotice(t("logo.notRecommendedSize", { width: size.width, height: size.height }));
    }
  });
  const removal = useAction(async () => {
    await api.delete(`${path}/logo`, { handleErrors: true });
    onChanged(null, null);
  });
  const busy = store.busy || removal.busy;
  const failed = store.error ?? removal.error;
  const error = refusal ??
    (failed
      ? failed instanceof ApiError && failed.body && failed === store.error
        ? errorText(failed).text
        : t("logo.saveFailed")
      : null);

  function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setRefusal(null);
    setNotice(null);
    removal.reset();
    const refused = checkLogoFile(file);
    if (refused) setRefusal(t(`errors:${refused.key}`, refused.params ?? {}));
    else void store.run(file);
  }

  function remove() {
    setRefusal(null);
    store.reset();
    void removal.run();
  }

  return (
    <SettingsCard id="logo" title={t("sections.logo")}>
      <div className="flex items-start gap-4">
        <div className="flex size-28 shrink-0 items-center justify-center rounded-md border bg-surface-muted">
          {preview
            ? (
              <img
                src={preview}
                alt={t("logo.previewAlt")}
                className="max-h-full max-w-full object-contain"
              />
            )
            : <ImageOff aria-hidden className="size-8 text-muted-foreground" />}
        </div>
        <div className="flex min-w-0 flex-col gap-2 text-sm">
          <p className="text-muted-foreground">{t("logo.rules")}</p>
          {info
            ? (
              <p className="text-xs text-muted-foreground">
                {t("logo.current", {
                  width: info.width,
                  height: info.height,
                  size: (info.size / 1024).toFixed(0),
                  type: info.content_type === "image/png" ? "PNG" : "JPEG",
                })}
              </p>
            )
            : <p className="text-xs text-muted-foreground">{t("logo.none")}</p>}
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              type="file"
              accept="image/png,image/jpeg"
              className="sr-only"
              aria-label={t("logo.choose")}
              onChange={upload}
            />
            <Button variant="secondary" disabled={busy} onClick={() => input.current?.click()}>
              <Upload aria-hidden />
              {t("logo.upload")}
            </Button>
            {etag
              ? (
                <Button variant="ghost" disabled={busy} onClick={remove}>
                  <Trash2 aria-hidden />
                  {t("logo.remove")}
                </Button>
              )
              : null}
          </div>
          {error ? <p role="alert" className="text-xs text-state-critical">{error}</p> : null}
          {notice ? <p className="text-xs text-state-warning">{notice}</p> : null}
        </div>
      </div>
    </SettingsCard>
  );
}
