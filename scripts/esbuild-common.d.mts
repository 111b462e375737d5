// Types of scripts/esbuild-common.mjs for the TypeScript tests that build with its plugins.
import type {BuildOptions, Plugin} from 'esbuild';

export const noReactDevtools: Plugin;
export const memoStringWidth: Plugin;
export const inkSharedOutputCache: Plugin;
export const styledCharsSameStyles: Plugin;
export const requireShim: string;
export const commonOptions: BuildOptions;
export const tokenizeNarrowLines: Plugin;
export const yogaWasmWithoutFetch: Plugin;
