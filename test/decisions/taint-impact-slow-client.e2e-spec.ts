import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkList, generateInventory } from '../../bench/generate-inventory';
import { startTestApp, type TestApp } from '../support/test-app';

// The large taint-impact answers come from a pool of buffers used again (src/decisions/answer-buffers.ts). A buffer
// must go back only once its response is closed: a client that reads slowly still has the rest of its answer in
// that buffer, waiting in the service's socket. This test holds one answer unread, has the service write a second
// answer of the same size, then reads the first: it must be whole. Over a Unix socket, whose buffers (~200 KB) keep
// most of a 700 KB answer in the service, where a TCP loopback connection could take all of it into the kernel.

jest.setTimeout(60_000);

/** The same question at two instants: answers of the same length whose every eviction row differs (its evictAt). */
const bodyFor = (answer: 'a' | 'b') =>
  JSON.stringify({
    taints: ['tw.test/slow-client=true:NoExecute'],
    labelSelector: 'pool=general',
    at: answer === 'a' ? '2026-11-25T00:10:00.000Z' : '2026-11-25T00:20:00.000Z',
  });

/** One HTTP/1.1 request on a raw connection: the answer's body, read only when `read` is called. */
function heldRequest(socketPath: string, body: string): { read: () => Promise<Buffer>; socket: Socket } {
  const socket = connect(socketPath);
  socket.pause();
  socket.write(
    `POST /v1/decisions/taint-impact HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const read = () =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      socket.on('data', (c: Buffer) => parts.push(c));
      socket.on('error', reject);
      socket.on('end', () => {
        const all = Buffer.concat(parts);
        const head = all.indexOf('\r\n\r\n');
        const status = all.subarray(0, all.indexOf('\r\n')).toString();
        if (!status.includes(' 200 ')) return reject(new Error(`answered ${status}`));
        resolve(all.subarray(head + 4));
      });
      socket.resume();
    });
  return { read, socket };
}

/** The same request read at once through node's client, on the same Unix socket. */
function readNow(socketPath: string, body: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        agent: false, // no idle keep-alive connection left to hold the socket server open
        method: 'POST',
        path: '/v1/decisions/taint-impact',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Buffer.concat(parts)) : reject(new Error(`answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('taint-impact: a slow client’s answer stays whole while the service writes others', () => {
  let app: TestApp;
  let unix: Server;
  const dir = mkdtempSync(path.join(tmpdir(), 'taintwise-slow-client-'));
  const socketPath = path.join(dir, 'taintwise.sock');

  beforeAll(async () => {
    app = await startTestApp('embedded', { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    const inventory = generateInventory({
      nodes: 150,
      pods: 8_000,
      seed: 7,
      drainSeconds: 30,
      now: new Date('2026-11-25T00:00:00Z'),
    });
    for (const chunk of chunkList(inventory.items, 5_000))
      expect((await app.request('POST', '/v1/import', chunk)).status).toBe(200);
    // the service's own HTTP server, reached over a Unix socket too
    const server = app.app.getHttpServer();
    unix = createServer((socket) => server.emit('connection', socket));
    await new Promise<void>((ok) => unix.listen(socketPath, ok));
  });
  afterAll(async () => {
    if (unix) await new Promise((ok) => unix.close(ok));
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers held unread while a second answer of the same size is written come out byte for byte', async () => {
    const expectedA = await readNow(socketPath, bodyFor('a'));
    const expectedB = await readNow(socketPath, bodyFor('b'));
    // large enough for the pool, and more than twice what a Unix socket buffers (~208 KB)
    expect(expectedA.length).toBeGreaterThan(512 << 10);
    expect(expectedB.length).toBe(expectedA.length);
    expect(expectedB.equals(expectedA)).toBe(false);

    for (let round = 0; round < 3; round++) {
      const held = heldRequest(socketPath, bodyFor('a'));
      // let the service answer A: what does not fit in the socket stays in A's buffer
      await new Promise((ok) => setTimeout(ok, 300));
      // B's answer is written while A's is still being sent
      expect((await readNow(socketPath, bodyFor('b'))).equals(expectedB)).toBe(true);
      const a = await held.read();
      expect(a.length).toBe(expectedA.length);
      expect(a.equals(expectedA)).toBe(true);
    }
  });
});
