#!/usr/bin/env node
// The test LiveKit's webhook goes here (scripts/services.sh): a shared LiveKit sends every room's
// events to one fixed URL, while each test server listens on a port of its own. A test registers
// its room prefix and its server's webhook URL; each event is forwarded, body and signature
// untouched, to the server whose prefix the event's room has (and dropped when none has it).
//
//   node scripts/livekit/webhook-relay.mjs 7890
//   POST   /register {"prefix":"t1a2b3-","target":"http://127.0.0.1:40123/api/livekit/webhook"}
//   DELETE /register {"prefix":"t1a2b3-"}
import http from 'node:http';

const port = Number(process.argv[2] ?? 7890);
/** prefix → { target, expires } ; a forgotten registration lapses after an hour. */
const targets = new Map();
const LAPSE_MS = 60 * 60 * 1000;

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size > 256 * 1024) request.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

const targetFor = (roomName) => {
  let best;
  for (const [prefix, entry] of targets) {
    if (entry.expires < Date.now()) targets.delete(prefix);
    else if (roomName.startsWith(prefix) && (!best || prefix.length > best.prefix.length))
      best = { prefix, target: entry.target };
  }
  return best?.target;
};

/**
 * One connection per event, closed after it (no keep-alive): a test server that stops must not
 * wait for the relay's idle connection.
 */
const forward = (target, body, headers) =>
  new Promise((resolve, reject) => {
    const outgoing = http.request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, connection: 'close', 'content-length': body.length },
      },
      (incoming) => {
        const chunks = [];
        incoming.on('data', (chunk) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 502, body: Buffer.concat(chunks) }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.setTimeout(15_000, () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });

const server = http.createServer(async (request, response) => {
  try {
    const body = await readBody(request);
    if (request.url === '/register') {
      const { prefix, target } = JSON.parse(body.toString('utf8') || '{}');
      if (typeof prefix !== 'string' || prefix.length < 4) throw new Error('prefix required');
      if (request.method === 'DELETE') targets.delete(prefix);
      else if (typeof target === 'string' && /^http:\/\/127\.0\.0\.1:\d+\//.test(target))
        targets.set(prefix, { target, expires: Date.now() + LAPSE_MS });
      else throw new Error('target must be a loopback http URL');
      response.writeHead(204).end();
      return;
    }
    let roomName = '';
    try {
      roomName = JSON.parse(body.toString('utf8'))?.room?.name ?? '';
    } catch {
      // not JSON: nobody's
    }
    const target = targetFor(roomName);
    if (!target) {
      response.writeHead(204).end();
      return;
    }
    const forwarded = await forward(target, body, {
      'content-type': request.headers['content-type'] ?? 'application/webhook+json',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    }).catch(() => undefined);
    response.writeHead(forwarded?.status ?? 502).end(forwarded?.body ?? '');
  } catch (error) {
    response.writeHead(400).end(String(error?.message ?? error));
  }
});
server.listen(port, '127.0.0.1', () =>
  process.stderr.write(`webhook relay on 127.0.0.1:${port}\n`),
);
