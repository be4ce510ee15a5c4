/**
 * `pig/extension`: pig's TypeScript extension API. It is upstream Pi's extension API, so an
 * extension written for Pi (importing `@earendil-works/pi-coding-agent`) and one written for
 * pig (importing `pig/extension`) see the same types and helpers.
 */
export type * from "./types.ts";
export * from "../compat/coding-agent.ts";
export { Type } from "typebox";
export { StringEnum } from "../compat/typebox.ts";
