/**
 * The schema helpers Pi extensions import: TypeBox 1.x itself (also under the legacy
 * `@sinclair/typebox` name) and Pi's `StringEnum`, a string schema with an `enum` list that
 * every provider accepts (TypeBox's own union of literals is not).
 */
import { Type, type TUnsafe } from "typebox";

export function StringEnum<const T extends readonly string[]>(values: T, options?: { description?: string; default?: T[number] }): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({
    type: "string",
    enum: values,
    ...(options?.description ? { description: options.description } : {}),
    ...(options?.default ? { default: options.default } : {}),
  });
}
