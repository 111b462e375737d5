// How the console was started (flags, environment, profile), as the state reads it: its own file
// so that what the screens read of it (src/state/screens/display.ts) does not import the context.
export interface ConsoleSettings {
  label: string;
  refreshSeconds: number;
  readOnly: boolean;
  insecure: boolean;
  /** Plain http:// to a host that is not loopback: the token crosses the network in clear. */
  plainHttp?: boolean;
  demo: boolean;
  /** Devices whose last handshake is older than this many days are stale (`--stale-days`). */
  staleDays?: number;
  /** Said when the console starts (the profile it was just switched to). */
  notice?: string;
  /** Where `--activity-log` appends the events, for the status line. */
  activityLogPath?: string | null;
  /** False with `--no-mouse` or the profile's `mouse: false`: the terminal keeps the mouse, and a mouse report that arrives anyway does nothing. */
  mouse?: boolean;
}
