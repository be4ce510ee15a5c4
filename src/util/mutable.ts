/** `T` with its fields writable: for an object a module fills in place and hands out as read-only. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
