// The floor for "start → first frame": a bare Node script that fetches and parses the same
// four lists the console loads at start. Exits when done; run.mjs times it from spawn.
const [url, token] = process.argv.slice(2);
const headers = {authorization: `Bearer ${token}`, accept: 'application/json'};
const bodies = await Promise.all(
  ['devices', 'users', 'rules', 'configuration'].map(async (path) => {
    const res = await fetch(`${url}/v0/${path}`, {headers});
    return JSON.parse(await res.text());
  }),
);
if (!Array.isArray(bodies[0].data)) process.exit(1);
