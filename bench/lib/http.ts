import { request as httpRequest } from 'node:http';

export interface HttpAnswer<T = any> {
  status: number;
  body: T;
  text: string;
  ms: number;
}

/** One request without client-side timeouts (an import chunk may take minutes on a loaded machine). */
export function http<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const url = new URL(path, base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: false,
        headers: {
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T, text, ms: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Every item of a Kubernetes-style paged list (`items` + `continue`). */
export async function listAll<T = any>(
  base: string,
  path: string,
  pageSize = 5000,
): Promise<{ status: number; items: T[] }> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await http(
      base,
      'GET',
      `${path}${sep}limit=${pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
    );
    if (answer.status !== 200) return { status: answer.status, items };
    const page = answer.body;
    const pageItems: T[] = Array.isArray(page) ? page : (page?.items ?? []);
    for (const item of pageItems) items.push(item);
    token = Array.isArray(page) ? undefined : page?.continue || page?.metadata?.continue || undefined;
  } while (token);
  return { status: 200, items };
}
