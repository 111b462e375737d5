// How Ink draws the console. The real process (cli.tsx) and `npm run bench` (test/bench/inproc.tsx)
// share these, so the bench measures the frames an admin gets.

export const FRAME_OPTIONS = {
  // Whole frames: src/ui/frame-writer.ts turns each into the changes. Ink 6.8's own incremental
  // mode writes every changed line one row too low after a frame that ends with a newline (as the
  // console's, one row less than the terminal, do), leaving the old line behind
  // (docs/terminal-notes.md, "Frames that send only what changed").
  incrementalRendering: false,
  maxFps: Number(process.env.FZ_MAXFPS ?? 60),
} as const;
