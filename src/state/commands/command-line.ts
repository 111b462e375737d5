// The command bar's line as the state holds it (src/state/core/state.ts); what it does is in
// src/state/commands/command-bar.ts.
import type {LineEdit} from '../input/textedit.js';

export interface CommandLine extends LineEdit {
  /** Which history entry ↑/↓ show, counted back from the newest (0); -1 while typing a new line. */
  recall: number;
  /** The line being typed when ↑ first recalled an older one; ↓ past the newest brings it back. */
  draft: string;
  /** What Tab offered when it could not decide, shown above the line. */
  candidates: readonly string[];
  /** Why Enter did not run the line (an unknown command); the text stays to be fixed. */
  error: string | null;
}
