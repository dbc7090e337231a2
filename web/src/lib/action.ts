/**
 * The state of a user action (a save, a delete, a start): busy while it runs, its error when it
 * failed. Pure so it can be tested without React; `useAction` (use-action.ts) holds it in state.
 * A run started while another is running waits its turn by being refused: the first one wins,
 * so a double click saves once.
 */

/** What a screen shows of an action. */
export interface ActionState {
  busy: boolean;
  error: unknown;
}

export const IDLE: ActionState = { busy: false, error: null };

/**
 * Runs actions one at a time and reports each state change. `run` resolves with the result, or
 * `undefined` when the action failed (its error is in the state) or another one was running.
 */
export function createActionRunner<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
  onChange: (state: ActionState) => void,
): { run: (...args: A) => Promise<R | undefined>; reset: () => void } {
  let running = false;
  return {
    async run(...args: A) {
      if (running) return undefined;
      running = true;
      onChange({ busy: true, error: null });
      try {
        const result = await action(...args);
        onChange(IDLE);
        return result;
      } catch (error) {
        onChange({ busy: false, error });
        return undefined;
      } finally {
        running = false;
      }
    },
    reset: () => onChange(IDLE),
  };
}
