// `--activity-log` seen from the status line: a batch is in the file whole or not at all
// (src/state/tracking/activity-log.ts); while writes fail, the status line says how many events
// the log is missing, and the console goes on (screen 5 still lists them); once a write works
// again, it says how many earlier events are not in the file.
import type {StatusMessage} from '../core/state.js';
import {notRecordedText, type AppendFailure} from './activity-log.js';
import type {ActivityEvent} from './events.js';

/** The log, as the console writes to it. */
export interface EventLog {
  append(events: readonly ActivityEvent[]): AppendFailure | null;
}

export class LogStatus {
  /** Events of batches that failed since the last good write. */
  private notRecorded = 0;

  constructor(
    private readonly log: EventLog | undefined,
    /** How many events screen 5 keeps (EventRing.capacity). */
    private readonly listedAtMost: number,
    private readonly say: (message: StatusMessage) => void,
  ) {}

  append(events: readonly ActivityEvent[]): void {
    if (!this.log) return;
    const failure = this.log.append(events);
    if (failure) {
      this.notRecorded += events.length;
      this.say({tone: 'error', text: `${notRecordedText(failure, this.notRecorded)}; ${this.listed(this.notRecorded)}`});
    } else if (this.notRecorded > 0) {
      const missing = this.notRecorded;
      this.notRecorded = 0;
      this.say({
        tone: 'warning',
        text: `The activity log is written again; ${missing} earlier event${missing === 1 ? ' is' : 's are'} NOT in it (${this.listed(missing)})`,
      });
    }
  }

  /** Screen 5 keeps the last `listedAtMost` events: beyond that, not all of the missing ones. */
  private listed(n: number): string {
    return n <= this.listedAtMost ? 'screen 5 lists them' : `screen 5 lists the last ${this.listedAtMost}`;
  }
}
