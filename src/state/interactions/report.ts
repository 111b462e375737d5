// The report modal: a job's progress bar, then its summary (bulk delete, onboarding); an import
// preview before anything is sent. Drawn by src/ui/views/Report.tsx.
import {scrolled} from './scrolling.js';
import {topModal} from '../core/state.js';
import {type DialogLine, type ReportModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import {typedAhead} from './dialog.js';
import type {Job} from './jobs.js';
import {outcomeUnknown, type JobOutcome} from './jobs.js';
import type {Action} from '../input/keymap.js';

// ---- the report modal ----------------------------------------------------------------------------

export interface ReportRun<T, R> {
  title: string;
  job: Job<T, R>;
  total: number;
  /** Lines shown while it runs, above the bar. */
  intro?: readonly DialogLine[];
  /** Runs after the job and before the summary: settles what the job could not; `say` adds a line to the report meanwhile. */
  settle?: (outcome: JobOutcome<T, R>, say: (text: string) => void) => Promise<JobOutcome<T, R>>;
  summarise: (outcome: JobOutcome<T, R>) => {title: string; lines: DialogLine[]; message: {tone: 'ok' | 'warning' | 'error'; text: string}};
}

/** Shows a job's progress in a report modal, then its summary there; the data is re-read after. */
export function runReport<T, R>(c: ConsoleContext, run: ReportRun<T, R>): Promise<void> {
  const report = c.push({
    kind: 'report',
    title: run.title,
    lines: run.intro ?? [],
    scroll: 0,
    phase: 'running',
    progress: {finished: 0, total: run.total, failed: 0, unknown: 0},
    stop: () => {
      run.job.stop();
      const m = c.current(report);
      if (m && m.phase === 'running') c.replaceModal(m, {...m, phase: 'stopping'});
      c.message({tone: 'warning', text: 'Stopping: nothing new is started; waiting for the requests in flight'});
    },
  }) as ReportModal;
  let lastDraw = 0;
  const progressed = (finished: number, failed: number, unknown: number) => {
    const m = c.current(report);
    if (m) c.replaceModal(m, {...m, progress: {finished, total: run.total, failed, unknown}});
  };
  return run.job
    .run((p) => {
      // One frame per ~30 ms is all a terminal shows; the last update always lands.
      const now = Date.now();
      if (now - lastDraw < 30 && p.finished < run.total) return;
      lastDraw = now;
      progressed(p.finished, p.failed, p.unknown);
    })
    .then(async (job) => {
      let outcome = job;
      if (run.settle) {
        outcome = await run.settle(job, (text) => {
          const m = c.current(report);
          if (m) c.replaceModal(m, {...m, lines: [...m.lines, {text, tone: 'muted'}]});
        });
      }
      const summary = run.summarise(outcome);
      // After the settling read: a write that still has no known outcome is "no answer", not "failed".
      const unknown = outcome.failed.filter((f) => outcomeUnknown(f.error)).length;
      const m = c.current(report);
      if (m) {
        c.replaceModal(m, {
          ...m,
          title: summary.title,
          lines: summary.lines,
          scroll: 0,
          phase: 'finished',
          progress: {finished: outcome.done.length + outcome.failed.length, total: run.total, failed: outcome.failed.length - unknown, unknown},
        });
      }
      c.message(summary.message);
      c.refresh();
    });
}

export function reportAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'report') return;
  const page = Math.max(1, c.layout.reportPage);
  // Not past the last page: below it the panel would show a line or two and empty rows.
  const max = Math.max(0, Math.min(m.lines.length - 1, c.layout.reportLastPage));
  const to = scrolled(action, m.scroll, page, max);
  if (to !== null) {
    c.replaceModal(m, {...m, scroll: to});
    return;
  }
  switch (action) {
    case 'confirm':
      if (m.phase === 'preview' && m.confirm && typedAhead(c, m)) return;
      if (m.phase === 'preview' && m.confirm) m.confirm.run();
      else if (m.phase === 'preview') c.message({tone: 'info', text: 'Nothing to apply: Esc closes the preview'});
      else c.message({tone: 'info', text: m.phase === 'finished' ? 'Done: Esc closes the report' : 'Running: Esc stops it'});
      return;
    case 'cancel':
      if (m.phase === 'preview') {
        c.removeModal(m);
        c.message({tone: 'info', text: 'Cancelled: nothing was sent'});
      } else if (m.phase === 'running') {
        m.stop?.();
      } else if (m.phase === 'stopping') {
        c.message({tone: 'warning', text: 'Stopping: waiting for the requests in flight to finish'});
      } else {
        c.removeModal(m);
      }
      return;
    default:
  }
}
