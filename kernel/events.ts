/**
 * In-process event bus for integration events between modules. Handlers run after the
 * publisher's transaction, one at a time per event, and a failing handler never fails the
 * publisher: it is logged instead.
 */
import type { Logger } from "./logger.ts";

/** Every integration event of the product, by name. Modules extend this map via declaration merging. */
// deno-lint-ignore no-empty-interface
export interface EventMap {}

type Handler<T> = (payload: T) => void | Promise<void>;

/** Publish/subscribe of typed integration events. */
export class EventBus {
  readonly #handlers = new Map<string, Handler<unknown>[]>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Registers a handler; returns a function that removes it. */
  subscribe<K extends keyof EventMap & string>(name: K, handler: Handler<EventMap[K]>): () => void {
    const list = this.#handlers.get(name) ?? [];
    list.push(handler as Handler<unknown>);
    this.#handlers.set(name, list);
    return () => {
      const current = this.#handlers.get(name) ?? [];
      this.#handlers.set(name, current.filter((h) => h !== handler));
    };
  }

  /** Delivers an event to every handler and waits for them. */
  async publish<K extends keyof EventMap & string>(name: K, payload: EventMap[K]): Promise<void> {
    for (const handler of this.#handlers.get(name) ?? []) {
      try {
        await handler(payload);
      } catch (error) {
        this.#logger.error("Event handler failed", { event: name, error });
      }
    }
  }
}
