import { useTranslation } from "react-i18next";
import { Spinner } from "../../ui/spinner.tsx";

/** Full-page loading screen shown while authentication and the session load. */
export function LoadingScreen() {
  const { t } = useTranslation("common");
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 bg-background">
      <Spinner className="size-7" />
      <p className="text-sm text-muted-foreground">{t("loadingPage")}</p>
    </div>
  );
}
