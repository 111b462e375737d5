// How Ink draws the console. The real process (cli.tsx) and `npm run bench` (test/bench/inproc.tsx)
// share these, so the bench measures the frames an admin gets.

export const FRAME_OPTIONS = {
  // Ink 6.8's incremental mode left stale lines behind in tmux.
  incrementalRendering: false,
  maxFps: Number(process.env.FZ_MAXFPS ?? 60),
} as const;
