import { RouterProvider } from "@tanstack/react-router";
import { Provider as JotaiProvider } from "jotai";
import { useEffect, useState } from "react";
import { ServiceUnavailablePage } from "../features/errors/service-unavailable-page.tsx";
import { LoadingScreen } from "../features/session/loading-screen.tsx";
import { SignInFailed } from "../features/session/sign-in-failed.tsx";
import { WrongAddress } from "../features/session/wrong-address.tsx";
import { createAppRouter } from "./router.tsx";
import { boot, type BootOutcome, routeApiErrors, signIn } from "./session.ts";
import { appStore } from "./store.ts";

let booting: Promise<BootOutcome> | null = null;

/** Boots once, even when React runs effects twice in development. */
function bootOnce(): Promise<BootOutcome> {
  booting ??= boot(appStore).catch((): BootOutcome => ({ kind: "config-failed" }));
  return booting;
}

function RoutedApp() {
  const [router] = useState(() => createAppRouter(appStore));
  useEffect(() => {
    routeApiErrors((href) => void router.navigate({ href }));
  }, [router]);
  return <RouterProvider router={router} />;
}

/** The application: loading screen while signing in, then the routed shell. */
export function App() {
  const [outcome, setOutcome] = useState<BootOutcome | null>(null);
  useEffect(() => {
    void bootOnce().then(setOutcome);
  }, []);

  let content;
  if (outcome === null || outcome.kind === "redirecting") {
    content = <LoadingScreen />;
  } else if (outcome.kind === "config-failed") {
    content = (
      <div className="flex min-h-screen bg-background">
        <ServiceUnavailablePage />
      </div>
    );
  } else if (outcome.kind === "wrong-address") {
    content = <WrongAddress publicUrl={outcome.publicUrl} />;
  } else if (outcome.kind === "sign-in-failed") {
    content = <SignInFailed onRetry={() => void signIn("/")} />;
  } else {
    content = <RoutedApp />;
  }
  return <JotaiProvider store={appStore}>{content}</JotaiProvider>;
}
