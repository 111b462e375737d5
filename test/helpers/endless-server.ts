// A local HTTP server whose every answer has a body that never ends: 64 KiB chunks pushed as fast
// as the client reads them (up to 1 GiB), for the client's body limit.
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';

export interface EndlessServer {
  origin: string;
  server: Server;
  /** Bytes pushed so far, over all requests. */
  sent(): number;
  /** Resolves when a response's connection has closed. */
  closed: Promise<void>;
  stop(): void;
}

export async function endlessServer(status: number, bodyStart = ''): Promise<EndlessServer> {
  let sent = 0;
  let onClose: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    onClose = resolve;
  });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = createServer((_req, res) => {
    res.writeHead(status, {'content-type': 'application/json'});
    if (bodyStart) res.write(bodyStart);
    const pump = () => {
      while (!res.destroyed && sent < 1024 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    res.on('close', onClose);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    sent: () => sent,
    closed,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
