import { FileQuestion } from "lucide-react";
import { useTranslation } from "react-i18next";
import { ErrorPage } from "./error-page.tsx";

/** 404: 'Page Not Found', or 'Resource Not Found' when a backend resource is missing (api). */
export function NotFoundPage({ api = false }: { api?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <ErrorPage
      status={404}
      icon={<FileQuestion />}
      title={t(api ? "errorPages.resourceNotFoundTitle" : "errorPages.notFoundTitle")}
      description={t(
        api ? "errorPages.resourceNotFoundDescription" : "errorPages.notFoundDescription",
      )}
    />
  );
}
