// Types of scripts/ink-output-rows.mjs for the test that builds Ink's output.js with it.
export const INK_OUTPUT_SHA256: string;
export function inkOutputRows(code: string): string;
