import { createStore } from "jotai";

/** The one jotai store of the app, also read by route guards outside React. */
export const appStore = createStore();
export type AppStore = typeof appStore;
