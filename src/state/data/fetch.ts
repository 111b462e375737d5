// One poll cycle: the four lists in parallel, merged into one result.
import {ApiError, type FirezoneClient, type SchemaIssue} from '../../api/index.js';
import {prepareSnapshot, type FetchedData, type HiddenList} from './snapshot.js';

export type ListingClient = Pick<FirezoneClient, 'pollDevices' | 'listUsers' | 'listRules' | 'getConfiguration'>;

/**
 * Devices are required. Users, rules and the configuration are admin-only in 0.7.36; if the
 * token's user was demoted they answer 401 Unauthorized while devices still work, so those
 * degrade to empty with an issue instead of blanking the console.
 */
export async function fetchAll(client: ListingClient): Promise<FetchedData> {
  const [devices, users, rules, configuration] = await Promise.allSettled([
    client.pollDevices(),
    client.listUsers(),
    client.listRules(),
    client.getConfiguration(),
  ]);
  if (devices.status === 'rejected') throw devices.reason;
  const issues: SchemaIssue[] = [...devices.value.issues];
  const hidden: HiddenList[] = [];
  const optional = <T>(result: PromiseSettledResult<{data: T; issues: SchemaIssue[]}>, fallback: T, list: HiddenList): T => {
    if (result.status === 'fulfilled') {
      issues.push(...result.value.issues);
      return result.value.data;
    }
    const err = result.reason;
    // Not the server's data being wrong, but what 0.7.36 shows this token: each screen says so
    // where the list would be, and the status line once (pollMessage).
    if (err instanceof ApiError && err.kind === 'forbidden') {
      hidden.push(list);
      return fallback;
    }
    throw err;
  };
  const data: FetchedData = {
    devices: devices.value.data,
    users: optional(users, [], 'users'),
    rules: optional(rules, [], 'rules'),
    configuration: optional(configuration, null, 'configuration'),
    issues,
    hidden,
  };
  // The device rows, derived now in short slices rather than in one long task when the snapshot is built.
  await prepareSnapshot(data);
  return data;
}
