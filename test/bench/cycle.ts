// A profile of one refresh cycle without the UI: `node cycle.mjs URL TOKEN [cycles]` (bundled by
// esbuild from this file). Prints per stage the thread CPU of the main thread, median of the cycles.
import {FirezoneClient} from '../../src/api/client.js';
import {fetchAll} from '../../src/state/data/fetch.js';
import {buildListView} from '../../src/state/lists/list-view.js';
import {buildSnapshot, type DeviceRow, type Snapshot} from '../../src/state/data/snapshot.js';
import {devices} from '../../src/state/screens/devices/screen.js';

const [url, token, n = '6'] = process.argv.slice(2) as [string, string, string?];
const client = new FirezoneClient({baseUrl: url, token, timeoutMs: 120_000});
let prev: Snapshot | null = null;
const getId = (r: DeviceRow) => r.id;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let i = 0; i < Number(n); i++) {
  const t0 = cpu();
  const w0 = performance.now();
  const data = await fetchAll(client);
  const t1 = cpu();
  const w1 = performance.now();
  const snap = buildSnapshot(data, prev, Date.now());
  const t2 = cpu();
  const cols = devices.columns(snap, () => Date.now());
  const view = buildListView(snap.devices, {getId, filter: '', sort: null, columns: cols});
  view.indexOf(snap.devices[0]!.id);
  const t3 = cpu();
  const sorted = buildListView(snap.devices, {getId, filter: '', sort: {key: 'ipv6', desc: false}, columns: cols});
  sorted.indexOf(snap.devices[0]!.id);
  const t4 = cpu();
  let same = 0;
  if (prev) for (let k = 0; k < snap.devices.length; k++) if (snap.devices[k] === prev.devices[k]) same++;
  prev = snap;
  const mem = process.memoryUsage();
  console.log(
    `fetch+decode ${(t1 - t0).toFixed(0)} ms cpu (${(w1 - w0).toFixed(0)} wall), snapshot ${(t2 - t1).toFixed(1)}, view ${(t3 - t2).toFixed(1)}, sorted view ${(t4 - t3).toFixed(1)}; kept rows ${same}/${snap.devices.length}; heap ${(mem.heapUsed / 1048576).toFixed(0)}/${(mem.heapTotal / 1048576).toFixed(0)} MB external ${(mem.external / 1048576).toFixed(0)} MB (buffers ${(mem.arrayBuffers / 1048576).toFixed(0)}) rss ${(mem.rss / 1048576).toFixed(0)} MB`,
  );
  await new Promise((r) => setTimeout(r, 1000));
}
await client.close();
