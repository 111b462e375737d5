// A rejected token is not "offline" (docs/architecture.md, "From an HTTP response to a frame"): the
// console says so and why, re-reads a profile's tokenFile/tokenCommand once, then asks for a new
// token in a masked prompt. Live updates hold while the prompt is open and resume with the screen,
// filter and cursor as they were. A write refused for its token (a form's save: polls hold while a
// form is open, so no poll finds out) goes the same way and is sent again with the new token.
import {ApiError} from '../../api/index.js';
import type {ConsoleContext, TokenRetry} from '../core/context.js';
import {errorText} from '../core/state.js';

/** Why the server may have refused the token, by 0.7.36's 401 kind. */
const TOKEN_REJECTED: Record<string, string> = {
  invalid_token: 'its signature does not match this server, or it has expired',
  no_resource_found: 'it was revoked or expired, or its user was deleted',
  unauthenticated: 'no token reached the server (a proxy may strip the Authorization header)',
};

export class TokenRecovery {
  /** The token source was re-read once since the last good poll; the next rejection asks the admin. */
  private reloaded = false;
  private lastRejection: ApiError | null = null;

  constructor(private readonly c: ConsoleContext) {}

  /** A poll went through: the next rejection may re-read the token source again. */
  accepted(): void {
    this.reloaded = false;
  }

  /** A poll or a write (`retry`: sent again once a token is accepted) was refused for its token. */
  async rejected(err: ApiError, retry?: TokenRetry): Promise<void> {
    const c = this.c;
    // Status updates repeat the last error until the next cycle; each failed cycle is handled once.
    if (err === this.lastRejection) return;
    this.lastRejection = err;
    if (c.state.modals.some((m) => m.kind === 'prompt' && m.mask)) return;
    const why = TOKEN_REJECTED[err.kind] ?? err.message;
    const setToken = c.client.setToken;
    if (!this.reloaded && c.io.reloadToken && setToken) {
      this.reloaded = true;
      try {
        const token = await c.io.reloadToken();
        if (token) {
          setToken.call(c.client, token);
          c.message({tone: 'warning', text: 'The server rejected the API token; re-read it from its source and retrying'});
          c.refresh();
          retry?.run();
          return;
        }
      } catch {
        // fall through to asking
      }
    }
    c.message({tone: 'error', text: `The server rejected the API token: ${why}`});
    if (!setToken) return;
    c.push({
      kind: 'prompt',
      label: 'New API token',
      mask: true,
      value: '',
      cursor: 0,
      lines: [
        {text: `The server rejected the API token: ${why}.`, tone: 'danger', bold: true},
        {text: 'Paste a new token (Firezone web UI: Settings → Account → API Tokens, or bin/create-api-token on the server).'},
        ...(retry ? [{text: `Then ${retry.what}.`, bold: true}] : []),
        {text: 'Live updates resume with this screen, filter and cursor as they are.', tone: 'muted'},
      ],
      help: 'Enter uses it · Esc keeps trying the old one',
      accept: async (value) => {
        const token = value.trim();
        if (token === '') return;
        const prompt = () => c.state.modals.find((m) => m.kind === 'prompt' && m.mask);
        try {
          setToken.call(c.client, token);
        } catch (e) {
          c.message({tone: 'error', text: errorText(e)});
          return;
        }
        // Checked before the prompt goes: a wrong token is refused here, with the server's
        // reason, and another can be pasted (it left the console offline with no way back).
        c.message({tone: 'info', text: 'Checking the new token…'});
        try {
          await c.client.getConfiguration();
        } catch (e) {
          const open = prompt();
          if (e instanceof ApiError && e.isAuthFailure) {
            const reason = TOKEN_REJECTED[e.kind] ?? e.message;
            if (open?.kind === 'prompt') {
              c.replaceModal(open, {
                ...open,
                value: '',
                cursor: 0,
                undo: [],
                lines: [{text: `The server rejected that token too: ${reason}.`, tone: 'danger', bold: true}, ...(open.lines ?? []).slice(1)],
              });
            }
            c.message({tone: 'error', text: `The server rejected that token too: ${reason}; paste another (Esc keeps retrying)`});
            return;
          }
          // Not an answer about the token (the server is unreachable): keep it, and let the
          // poller's back-off report the connection.
          c.message({tone: 'warning', text: `Token set, but it could not be checked: ${errorText(e)}`});
        }
        const open = prompt();
        if (open) c.removeModal(open);
        this.reloaded = true;
        c.message({tone: 'info', text: 'Token accepted; resuming live updates'});
        c.refresh();
        retry?.run();
      },
    });
  }
}
