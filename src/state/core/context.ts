// What handlers may use of the console: the narrow interface every key handler, resource action
// and interaction depends on instead of the Controller. The Controller (the composition root)
// implements it; nothing here imports a handler (docs/architecture.md, "The console context").
import type {FirezoneClient} from '../../api/index.js';

/** What the console needs of the API client (tests may pass a wrapper). */
export type ConsoleClient = Pick<
  FirezoneClient,
  | 'listDevices'
  | 'listUsers'
  | 'listRules'
  | 'getConfiguration'
  | 'updateConfiguration'
  | 'createDevice'
  | 'updateDevice'
  | 'deleteDevice'
  | 'createUser'
  | 'updateUser'
  | 'deleteUser'
  | 'createRule'
  | 'updateRule'
  | 'deleteRule'
> & {
  /** Replaces a rejected token for the requests from now on. */
  setToken?: (token: string) => void;
  /** Aborts the writes in flight (Esc during a save); returns how many. */
  cancelWrites?: () => number;
};

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
  /** Where `--activity-log` appends the events, for the status line. */
  activityLogPath?: string | null;
}
