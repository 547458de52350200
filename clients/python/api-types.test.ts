import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_TYPES_PATH, pythonApiTypes } from '../../gym/build';
import { openApiDocument, startGymServer, type GymServer } from '../../gym/server';

/**
 * One contract for both languages: the Python package's API types are generated from the
 * server's OpenAPI document, the client calls every route the document has (or says here why
 * not), and real answers match the Python types (tests/check_api_types.py).
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Routes the client leaves to other tools, and why. */
const NOT_IN_CLIENT: Record<string, string> = {
  'GET /openapi.json': 'the document itself: for generators and people',
  'GET /v1/games/{}': 'games() lists every game with the same fields',
  'GET /v1/sessions/{}/watch': 'a server-sent event stream for people watching (the site), not for agents',
  'GET /v1/vectors': 'listing vector sessions is for operators; a client knows its own (vector())',
};

describe('the Python client follows the OpenAPI document', () => {
  it('arcade_gym/api_types.py is what `npm run build:python-types` writes now', () => {
    expect(readFileSync(PYTHON_TYPES_PATH, 'utf8'), 'run npm run build:python-types').toBe(pythonApiTypes());
  });

  it('calls every route of the document', () => {
    const source = readFileSync(path.join(HERE, 'arcade_gym', 'client.py'), 'utf8');
    // Paths the client requests: "…" and f"…{var}…" literals passed to request().
    const called = new Set(
      [...source.matchAll(/self\.request\(\s*"(GET|POST|DELETE)",\s*f?"([^"]+)"/g)].map(([, method, p]) => `${method} ${p.replace(/\{[^}]+\}/g, '{}')}`),
    );
    const paths = (openApiDocument() as { paths: Record<string, Record<string, unknown>> }).paths;
    const routes = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`));
    const missing = routes.filter((r) => !called.has(r) && !(r in NOT_IN_CLIENT));
    expect(missing, 'routes of the OpenAPI document the Python client never calls').toEqual([]);
    // And no exemption outlives its route.
    expect(Object.keys(NOT_IN_CLIENT).filter((r) => !routes.includes(r))).toEqual([]);
  });

  describe('real answers', () => {
    let server: GymServer;
    beforeAll(async () => {
      server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 4 } } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("match the types the client's methods are annotated with, and the check fails a wrong one", async () => {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          'python3',
          [path.join(HERE, 'tests', 'check_api_types.py'), server.url],
          { env: { ...process.env, PYTHONPATH: HERE }, timeout: 120_000 },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
        ),
      );
      const r = JSON.parse(out.trim().split('\n').at(-1)!) as { checked: string[]; problems: string[]; controls_passed: boolean[] };
      expect(r.problems).toEqual([]);
      expect(new Set(r.checked)).toEqual(
        new Set([
          'health',
          'games',
          'create_session',
          'session',
          'sessions',
          'close_session',
          'create_vector',
          'vector_reset',
          'vector_step',
          'vector',
          'close_vector',
        ]),
      );
      expect(r.controls_passed).toEqual([false, false, false]);
    });
  });
});
