// `E` for an item whose form is a flat list of fields (a device, a user, a rule): the file holds one
// JSON member per field, and its values are checked as the form checks them — the field's kind, its
// length limit (src/state/input/limits.ts), then its own validation with the server's words — so the
// editor can send nothing the form would not (docs/terminal-notes.md, "Handing the terminal to an editor").
import type {ApiError} from '../../api/index.js';
import type {ConsoleContext} from '../core/context.js';
import {createForm, fieldLimit, validateForm, type FieldSpec, type FieldValue, type Values} from './form.js';
import {proposeChanges, type EditorDocument} from './external-edit.js';

export interface FormDocumentSource {
  what: string;
  stem: string;
  notes: readonly string[];
  /** The form's fields the file holds (text, toggle and choice; a secret is never written out). */
  specs: readonly FieldSpec[];
  initial: Values;
  /** The question before sending: "Apply these changes to device laptop-1?". */
  question: string;
  /** Sends what changed, as the form's save does; resolves to what follows the dialog's closing. */
  send(values: Values, initial: Values): Promise<() => void>;
  /**
   * The item's fields as the server has them now, read just before sending: a field the admin
   * changed that the server changed too since the file was written is not sent over it unasked.
   */
  current?: () => Promise<Values>;
  /** Server paths → fields, as the form has them (0.7.36 says a device's duplicate name under `user_id`). */
  errorAliases?: Record<string, {field: string; note?: string}>;
  mapErrors?: (fieldErrors: Record<string, string[]>) => Record<string, string[]>;
}

/** How a value reads in the changes: strings quoted (so spaces and emptiness show), toggles on/off. */
export function shownValue(value: FieldValue | undefined): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value ?? '');
}

/** One field's value from the file, or why it cannot be one (its kind, its length limit, one line). */
export function fieldValue(spec: FieldSpec, raw: unknown): {value: FieldValue} | {error: string} {
  if (spec.kind === 'toggle') return typeof raw === 'boolean' ? {value: raw} : {error: `${spec.key}: must be true or false`};
  if (typeof raw !== 'string') return {error: `${spec.key}: must be a string (in double quotes)`};
  if (spec.kind === 'choice') {
    const values = (spec.choices ?? []).map((c) => c.value);
    return values.includes(raw) ? {value: raw} : {error: `${spec.key}: must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`};
  }
  const limit = fieldLimit(spec);
  if (raw.length > limit.units || (limit.chars !== undefined && [...raw].length > limit.chars)) {
    return {error: `${spec.key}: should be at most ${limit.chars ?? limit.units} character(s)`};
  }
  if (spec.multiline !== true && /[\r\n]/.test(raw)) return {error: `${spec.key}: must be one line`};
  return {value: raw};
}

/** The file's object checked field by field, then as the form validates: the values, or the errors. */
export function checkFields(specs: readonly FieldSpec[], initial: Values, edited: unknown): {ok: true; value: Values} | {ok: false; errors: string[]} {
  if (edited === null || typeof edited !== 'object' || Array.isArray(edited)) {
    return {ok: false, errors: [`the file must hold one JSON object with the members ${specs.map((s) => JSON.stringify(s.key)).join(', ')}`]};
  }
  const record = edited as Record<string, unknown>;
  const errors: string[] = [];
  const known = new Set(specs.map((s) => s.key));
  for (const key of Object.keys(record)) {
    if (!known.has(key)) errors.push(`${JSON.stringify(key).slice(0, 80)}: not a field that can be edited here (the fields are ${[...known].join(', ')})`);
  }
  const values: Values = {};
  const wrongKind = new Set<string>();
  for (const spec of specs) {
    if (!Object.hasOwn(record, spec.key)) {
      errors.push(`${spec.key}: missing (to clear a text, write "")`);
      wrongKind.add(spec.key);
      continue;
    }
    const got = fieldValue(spec, record[spec.key]);
    if ('error' in got) {
      errors.push(got.error);
      wrongKind.add(spec.key);
    } else values[spec.key] = got.value;
  }
  // The form's own checks too, all in one round: each field of the right kind, the others standing
  // at what the file was written with (a field's check may read another's value).
  const validated = validateForm({...createForm(specs, initial), values: {...initial, ...values}});
  for (const spec of specs) {
    if (wrongKind.has(spec.key)) continue;
    for (const message of validated.errors[spec.key] ?? []) errors.push(`${spec.key}: ${message}`);
  }
  return errors.length > 0 ? {ok: false, errors} : {ok: true, value: values};
}

/** A 422's field errors as lines naming the file's members, through the form's own mapping. */
export function serverErrorLines(err: ApiError, source: Pick<FormDocumentSource, 'errorAliases' | 'mapErrors'>): string[] {
  const fieldErrors = source.mapErrors ? source.mapErrors(err.fieldErrors) : err.fieldErrors;
  const lines: string[] = [];
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const alias = source.errorAliases?.[path];
    const field = alias?.field ?? path;
    for (const m of messages) lines.push(path === 'base' ? m : `${field}: ${alias?.note ? `${m} (${alias.note})` : m}`);
  }
  return lines;
}

export function formDocument(source: FormDocumentSource): EditorDocument<Values> {
  const content: Record<string, FieldValue> = {};
  for (const spec of source.specs) content[spec.key] = source.initial[spec.key] ?? (spec.kind === 'toggle' ? false : '');
  return {
    what: source.what,
    stem: source.stem,
    notes: source.notes,
    content,
    check: (edited) => checkFields(source.specs, source.initial, edited),
    // Against what the file was written with: a field the initial values leave out was written
    // as its kind's empty value, and is no change when it comes back so.
    changes: (values) =>
      source.specs.filter((s) => values[s.key] !== content[s.key]).map((s) => `${s.key}: ${shownValue(content[s.key])} → ${shownValue(values[s.key])}`),
    propose: (ctx: ConsoleContext, values, changes, reopen) => {
      const serverErrors = (err: ApiError) => serverErrorLines(err, source);
      const send = async (): Promise<() => void> => {
        const now = source.current ? await source.current() : null;
        const mine = source.specs.filter((s) => values[s.key] !== content[s.key]);
        // A field both changed to the same value is no conflict.
        const moved = now ? mine.filter((s) => (now[s.key] ?? content[s.key]) !== content[s.key] && now[s.key] !== values[s.key]) : [];
        if (!now || moved.length === 0) return source.send(values, source.initial);
        // Changed on the server too: nothing sent. The question again, against what it has now:
        // y sends the admin's changes (only those) over it; n drops the edit (E starts again
        // from what the server has, once the list is read again).
        const server: Values = {...content, ...now};
        const merged: Values = {...server};
        for (const s of mine) merged[s.key] = values[s.key]!;
        const lines = mine.map(
          (s) =>
            `${s.key}: ${shownValue(server[s.key])} → ${shownValue(values[s.key])}${moved.includes(s) ? ` (was ${shownValue(content[s.key])} when the file was written)` : ''}`,
        );
        const changedThere = moved.map((s) => s.key).join(', ');
        return () =>
          proposeChanges(
            ctx,
            {
              title: `${changedThere} changed on the server since the file was written: nothing was sent. Send yours over it?`,
              changes: lines,
              send: () => source.send(merged, server),
              serverErrors,
            },
            reopen,
          );
      };
      proposeChanges(ctx, {title: source.question, changes, send, serverErrors}, reopen);
    },
  };
}
