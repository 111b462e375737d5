// The floor for "start → first frame": a bare Node script that fetches and parses the same
// four lists the console loads at start, with node:http(s) (the fastest client here; global
// fetch is the slowest). Says how many devices it read, and exits: run.mjs times it as it times
// the console, from Enter in a terminal to that line on the screen.
import {request as httpRequest} from 'node:http';
import {request as httpsRequest} from 'node:https';

const [url, token] = process.argv.slice(2);
const headers = {authorization: `Bearer ${token}`, accept: 'application/json'};
const get = (path) =>
  new Promise((resolve, reject) => {
    const target = new URL(`${url}/v0/${path}`);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    request(target, {headers}, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
const bodies = await Promise.all(['devices', 'users', 'rules', 'configuration'].map(get));
if (!Array.isArray(bodies[0].data)) process.exit(1);
process.stdout.write(`floor: ${bodies[0].data.length} devices\n`);
