// Colours in one place so NO_COLOR can turn them all off (chalk, under Ink, does not read
// NO_COLOR). Bold, dim and inverse are not colour and stay on.

import type {Tone} from '../state/core/tone.js';

export type ColorName = Tone;

const PALETTE: Record<ColorName, string> = {
  online: 'green',
  idle: 'yellow',
  never: 'gray',
  accent: 'cyan',
  danger: 'red',
  warning: 'yellow',
  ok: 'green',
  muted: 'gray',
  badge: 'magenta',
};

let enabled = true;

/** NO_COLOR (any non-empty value) wins unless FORCE_COLOR asks for colour explicitly. */
export function configureColor(env: NodeJS.ProcessEnv): void {
  const force = env.FORCE_COLOR;
  const forced = force !== undefined && force !== '0' && force !== 'false';
  enabled = forced || !(env.NO_COLOR !== undefined && env.NO_COLOR !== '');
}

export function color(name: ColorName): string | undefined {
  return enabled ? PALETTE[name] : undefined;
}
