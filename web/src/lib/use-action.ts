/** A user action in a component: `{ run, busy, error, reset }` (lib/action.ts holds the rules). */
import { useEffect, useMemo, useRef, useState } from "react";
import { type ActionState, createActionRunner, IDLE } from "./action.ts";

/**
 * Wraps an action (a save, a delete, a start): `busy` while it runs, `error` when it failed,
 * `run(...)` resolving with its result or `undefined`. The latest `action` is called, so it may
 * read the component's current state; nothing is set after the component is gone.
 */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): {
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  error: unknown;
  reset: () => void;
} {
  const [state, setState] = useState<ActionState>(IDLE);
  const latest = useRef(action);
  latest.current = action;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const runner = useMemo(
    () =>
      createActionRunner((...args: A) => latest.current(...args), (next) => {
        if (mounted.current) setState(next);
      }),
    [],
  );
  return { run: runner.run, reset: runner.reset, busy: state.busy, error: state.error };
}
