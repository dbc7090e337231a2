import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { UnsupportedBrowserPage } from "./features/browser-support/unsupported-browser-page.tsx";
import { initI18n } from "./i18n/i18n.ts";
import { checkBrowser } from "./lib/browser-support.ts";
import { applyTheme, followSystemTheme, readThemePreference } from "./lib/theme.ts";
import { appStore } from "./app/store.ts";
import { themePreferenceAtom } from "./lib/shell-atoms.ts";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("Cannot start: the #root element is missing from index.html");

applyTheme(readThemePreference());
followSystemTheme(() => appStore.get(themePreferenceAtom));

// The browser check comes first: an unsupported browser gets the warning and nothing else.
const browser = checkBrowser(navigator.userAgent);
void initI18n().finally(() => {
  const root = createRoot(container);
  root.render(
    browser.supported
      ? (
        <StrictMode>
          <App />
        </StrictMode>
      )
      : <UnsupportedBrowserPage check={browser} />,
  );
});
