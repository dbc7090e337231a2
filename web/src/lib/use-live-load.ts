/** A load that refreshes in place: the last answer stays on screen while the next one loads. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { AsyncStateValue } from "../ui/loader.tsx";

/** Spec 9: the data refresh interval of live screens. */
export const REFRESH_MS = 30_000;

export interface LiveLoad<T> {
  /** The latest answer for the current key (null until the first one arrived). */
  data: T | null;
  /** The last failure, cleared by the next success. */
  error: unknown;
  loading: boolean;
  refresh: () => void;
}

/**
 * Loads for `key` and again on `refresh()` or every `everyMs` while `everyMs` is set. A change of
 * `key` drops the previous answer (it belongs to something else); a refresh keeps it.
 */
export function useLiveLoad<T>(
  load: (signal: AbortSignal, hasData: boolean) => Promise<T>,
  key: string | null,
  everyMs: number | null,
): LiveLoad<T> {
  const [state, setState] = useState<{ key: string | null; data: T | null; error: unknown }>({
    key: null,
    data: null,
    error: null,
  });
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const hasData = state.key === key && state.data !== null;
  const hasDataRef = useRef(hasData);
  hasDataRef.current = hasData;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(controller.signal, hasDataRef.current).then(
      (data) => {
        if (!controller.signal.aborted) setState({ key, data, error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.key === key ? { ...s, error } : { key, data: null, error }));
      },
    ).finally(() => {
      if (!controller.signal.aborted) setLoading(false);
    });
    return () => controller.abort();
  }, [key, tick]);

  useEffect(() => {
    if (everyMs === null || key === null) return;
    const timer = window.setInterval(() => setTick((n) => n + 1), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs, key]);

  const refresh = useCallback(() => setTick((n) => n + 1), []);
  return {
    data: state.key === key ? state.data : null,
    error: state.key === key ? state.error : null,
    loading,
    refresh,
  };
}

/** A live load as {@link AsyncState} renders it: the data once there, else the error or loading. */
export function liveState<T>(load: LiveLoad<T>): AsyncStateValue<T> {
  if (load.data !== null) return { status: "success", data: load.data };
  return load.error ? { status: "error", error: load.error } : { status: "loading" };
}
