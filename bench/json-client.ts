import http from 'node:http';

/**
 * A lean keep-alive JSON client, like the Python client's http.client connection: what the HTTP
 * benches call servers with, so that their figures are the server path's and not a heavy client's.
 * Rejects on a status of 400 or more with the path and the body.
 */
export function jsonClient(base: string, extraHeaders: Record<string, string> = {}) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  return (method: string, path: string, body?: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers = { ...extraHeaders, ...(data ? { 'content-type': 'application/json', 'content-length': data.byteLength } : {}) };
      const req = http.request({ host: hostname, port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const json = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')) as Record<string, unknown>;
          if ((res.statusCode ?? 500) >= 400) reject(new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`));
          else resolve(json);
        });
      });
      req.on('error', reject);
      req.end(data);
    });
}
