// Renders a FormState. Display only: every key, text editing included, goes through the
// App's form scope (src/state/interactions/form.ts, src/state/input/textedit.ts).
import React from 'react';
import {Box} from 'ink';
import {glyphs} from '../state/core/glyphs.js';
import {Text} from './SafeText.js';
import {fieldHelp, isDisabled, type FieldSpec, type FormState} from '../state/interactions/form.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';
import {displayWidth, truncate, wrapLines} from './text.js';

export interface FormViewProps {
  title: string;
  form: FormState;
  width: number;
  height: number;
  /** Extra lines above the fields (e.g. what 0.7.36 ignores on update). */
  notes?: readonly string[];
  /** Told which field each drawn line belongs to (its rows from the top of this view), for the mouse. */
  onDrawn?: (rows: Array<{row: number; field: number}>) => void;
}

/** The label column's least width; a form whose labels are longer widens it (up to 40% of the line). */
const LABEL_MIN = 30;
/** The most lines one field error takes (an override explanation runs to three at 80 columns). */
const FIELD_ERROR_LINES = 6;

function valueText(spec: FieldSpec, value: string | boolean): string {
  switch (spec.kind) {
    case 'toggle':
      return value ? '[x] yes' : '[ ] no';
    case 'choice': {
      const label = spec.choices?.find((c) => c.value === value)?.label ?? String(value);
      return `${glyphs().choiceOpen} ${label} ${glyphs().choiceClose}`;
    }
    case 'picker':
      return String(value) === '' ? '(none: Enter to pick)' : `${spec.display ? spec.display(value) : String(value)}  (Enter to change)`;
    case 'secret':
      return glyphs().mask.repeat(String(value).length);
    default:
      return String(value);
  }
}

export function FormView({title, form, width, height, notes = [], onDrawn}: FormViewProps): React.JSX.Element {
  const lines: React.JSX.Element[] = [];
  /** The field of each line: its own line, its errors and its help. */
  const fieldOf: number[] = [];
  // Wide enough for the longest label and two spaces ("Unprivileged device configuration" was cut at 120 columns).
  const labelWidth = Math.max(LABEL_MIN, Math.min(Math.floor(width * 0.4), Math.max(...form.specs.map((s) => displayWidth(s.label, width))) + 4));
  const inputWidth = Math.max(10, width - labelWidth - 2);
  form.specs.forEach((spec, i) => {
    const focused = i === form.focus;
    const disabled = isDisabled(spec, form.values);
    const value = form.values[spec.key] ?? '';
    const textual = disabled === null && (spec.kind === 'text' || spec.kind === 'secret');
    lines.push(
      // Fixed boxes: Ink shrinks a row's children to fit, and a long value or placeholder took cells
      // from the label ("Discovery document URI(e.g. https://…" at 80 columns).
      <Box key={spec.key} width={width}>
        <Box width={labelWidth} flexShrink={0}>
          <Text bold={focused} color={disabled !== null ? color('muted') : undefined} wrap="truncate">
            {`${focused ? glyphs().focus : ' '} ${truncate(spec.label, labelWidth - 3).padEnd(labelWidth - 2)}`}
          </Text>
        </Box>
        <Box width={inputWidth} flexShrink={0}>
          {textual ? (
            <TextField
              value={spec.multiline ? String(value).replace(/\r?\n/g, glyphs().lineBreak) : String(value)}
              cursor={form.cursor}
              focused={focused}
              mask={spec.kind === 'secret'}
              width={inputWidth}
              {...(spec.placeholder ? {placeholder: spec.placeholder} : {})}
            />
          ) : (
            <Text color={disabled !== null ? color('muted') : undefined} inverse={focused && spec.kind !== 'text' && spec.kind !== 'secret'}>
              {truncate(disabled !== null ? disabled : valueText(spec, value), inputWidth)}
            </Text>
          )}
        </Box>
      </Box>,
    );
    // Errors wrap instead of being cut: an override explanation must be readable in full. They are
    // wrapped here, a line each, so that the window below counts the rows they take: a message Ink
    // wrapped by itself made the column taller than the form's height, and Ink then squeezed rows
    // together (the title gone, the field's value drawn over by its error).
    // A message longer than FIELD_ERROR_LINES (a server's, cut at the edge to a few hundred
    // characters) ends in an ellipsis: read no further than what can show.
    (form.errors[spec.key] ?? []).forEach((message, m) => {
      const wrapped = wrapLines(message, Math.max(1, inputWidth - 2), FIELD_ERROR_LINES + 1);
      const shown =
        wrapped.length > FIELD_ERROR_LINES
          ? [...wrapped.slice(0, FIELD_ERROR_LINES - 1), truncate(wrapped.slice(FIELD_ERROR_LINES - 1).join(' '), inputWidth - 2)]
          : wrapped;
      shown.forEach((line, j) =>
        lines.push(
          <Text key={`${spec.key}-e-${m}-${j}`} color={color('danger')} wrap="truncate">
            {`${' '.repeat(labelWidth)}${j === 0 ? glyphs().error : ' '} ${line}`}
          </Text>,
        ),
      );
    });
    const help = focused ? fieldHelp(spec, form.values) : null;
    if (help) lines.push(<Text key={`${spec.key}-h`} color={color('muted')}>{`${' '.repeat(labelWidth)}${truncate(help, inputWidth)}`}</Text>);
    while (fieldOf.length < lines.length) fieldOf.push(i);
  });
  const header: React.JSX.Element[] = [
    <Text key="title" bold color={color('accent')}>
      {truncate(title, width)}
    </Text>,
  ];
  // Notes wrap: what 0.7.36 ignores on update, or how providers are saved, must be readable whole.
  for (const note of notes) {
    wrapLines(note, width).forEach((line, i) =>
      header.push(
        <Text key={`n-${note}-${i}`} color={color('muted')}>
          {line}
        </Text>,
      ),
    );
  }
  for (const message of form.formErrors)
    header.push(<Text key={`f-${message}`} color={color('danger')}>{`${glyphs().error} ${truncate(message, width - 2)}`}</Text>);
  // Keep the focused field in view on short terminals.
  const available = Math.max(1, height - header.length);
  const focusLine = Math.max(
    0,
    lines.findIndex((l) => l.key === form.specs[form.focus]?.key),
  );
  const start = Math.max(0, Math.min(focusLine - Math.floor(available / 3), lines.length - available));
  const shown = lines.slice(start, start + available);
  // Every header element and line is one row; what the box's height cuts off is not drawn.
  onDrawn?.(shown.map((_, k) => ({row: header.length + k, field: fieldOf[start + k]!})).filter((r) => r.row < height));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {header}
      {shown}
    </Box>
  );
}
