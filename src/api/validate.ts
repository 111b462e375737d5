// Response validation that degrades instead of crashing: a wrong-typed field becomes a
// named issue and a neutral value, so one odd device never blanks the whole list.
import type {z} from 'zod';

export interface SchemaIssue {
  /** `data[3].rx_bytes` */
  path: string;
  message: string;
}

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

// Fallbacks are tried in order; the first one a field's own schema accepts is used.
const FALLBACK_CANDIDATES: unknown[] = [null, [], '', false, 0];
const fallbackCache = new WeakMap<ObjectSchema, Map<string, {ok: boolean; value: unknown}>>();

function fallbackFor(schema: ObjectSchema, key: string): {ok: boolean; value: unknown} {
  let perSchema = fallbackCache.get(schema);
  if (!perSchema) {
    perSchema = new Map();
    fallbackCache.set(schema, perSchema);
  }
  let entry = perSchema.get(key);
  if (!entry) {
    const field = schema.shape[key] as z.ZodType | undefined;
    // An item without a usable id cannot be selected, edited or deleted: drop it instead.
    const candidate = key === 'id' || !field ? undefined : FALLBACK_CANDIDATES.find((c) => field.safeParse(c).success);
    entry = candidate === undefined ? {ok: false, value: undefined} : {ok: true, value: candidate};
    perSchema.set(key, entry);
  }
  return entry;
}

function formatPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  let out = prefix;
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return `expected ${issue.expected}`;
  }
  return issue.message;
}

/**
 * Parses one object. Returns undefined when the object cannot be salvaged (not an object,
 * or a field without a neutral value such as `id` is broken); issues name each bad field.
 */
export function salvage<S extends ObjectSchema>(schema: S, raw: unknown, prefix: string, issues: SchemaIssue[]): z.infer<S> | undefined {
  const first = schema.safeParse(raw);
  if (first.success) return first.data;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push({path: prefix, message: `expected an object, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`});
    return undefined;
  }
  const patched: Record<string, unknown> = {...(raw as Record<string, unknown>)};
  for (const issue of first.error.issues) {
    const key = issue.path[0];
    issues.push({path: formatPath(prefix, issue.path), message: describe(issue)});
    if (typeof key !== 'string') return undefined;
    const fallback = fallbackFor(schema, key);
    if (!fallback.ok) return undefined;
    patched[key] = fallback.value;
  }
  const second = schema.safeParse(patched);
  return second.success ? second.data : undefined;
}

/**
 * Parses a list item by item, so one broken item costs only itself. `accept`, when given, is a
 * non-copying guard equivalent to the schema: items it accepts are used as they are.
 */
export function salvageList<S extends ObjectSchema>(
  schema: S,
  raw: unknown,
  prefix: string,
  issues: SchemaIssue[],
  accept?: (item: unknown) => boolean,
): z.infer<S>[] | undefined {
  if (!Array.isArray(raw)) {
    issues.push({path: prefix, message: `expected a list, got ${raw === null ? 'null' : typeof raw}`});
    return undefined;
  }
  const items: z.infer<S>[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (accept?.(raw[i])) {
      items.push(raw[i] as z.infer<S>);
      continue;
    }
    const item = salvage(schema, raw[i], `${prefix}[${i}]`, issues);
    if (item !== undefined) items.push(item);
  }
  return items;
}
