// The configuration record this console just saved. The server's answer to the PUT is its record
// after the write, so the screen shows it at once instead of after the next poll (a poll of a large
// server takes a while, and an edit opened meanwhile would start from the record before the save
// and be refused as "changed on the server" by the save's own change). A poll that began before the
// save may carry the record from before it; such a poll must not take the saved one back.
import type {Configuration} from '../../api/index.js';
import {parseTime} from './format.js';

/**
 * The record as later reads give it: 0.7.36 echoes a full-length mask in the PUT's answer
 * (`10.0.0.1/32`) and drops it on every read after (docs/firezone-0.7.36.md, "Scalar encodings and
 * the lost /32"). Held or noted as answered, the next poll would show the mask "removed".
 */
export function asRead(config: Configuration): Configuration {
  const allowed = config.default_client_allowed_ips;
  if (!allowed) return config;
  const read = allowed.map((cidr) => cidr.replace(/^([0-9.]+)\/32$/, '$1').replace(/^([0-9a-fA-F:.]*:[0-9a-fA-F:.]*)\/128$/, '$1'));
  return read.every((cidr, i) => cidr === allowed[i]) ? config : {...config, default_client_allowed_ips: read};
}

export class SavedConfiguration {
  private saves = 0;
  private held: {config: Configuration; save: number} | null = null;

  /** Read when a poll begins; hand it to `over` with that poll's configuration. */
  get mark(): number {
    return this.saves;
  }

  saved(config: Configuration): void {
    this.held = {config, save: ++this.saves};
  }

  /**
   * The configuration a poll that began at `began` (its `mark`) should show. A poll that began after
   * the last save shows what it read; one that began before shows the saved record, unless what it
   * read is newer (someone saved after this console did) by the record's own time.
   */
  over(polled: Configuration | null, began: number): Configuration | null {
    const held = this.held;
    if (!held || polled === null) return polled;
    if (began >= held.save) {
      this.held = null;
      return polled;
    }
    if (polled.updated_at === held.config.updated_at) return polled;
    const polledAt = parseTime(polled.updated_at);
    const savedAt = parseTime(held.config.updated_at);
    return polledAt !== null && savedAt !== null && polledAt > savedAt ? polled : held.config;
  }
}
