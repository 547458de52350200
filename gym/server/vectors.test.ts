import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EpisodeRecord } from '../schema/records';
import { decodeFrame } from './encode';
import { CloseVectorResponse, CreateVectorResponse, ErrorBody, StepResponse, VectorResetResponse, VectorStatusJson, VectorStepResponse } from './schemas';
import { startGymServer, type GymServer } from './server';
import { type Answer, conforms, httpClient } from '../testing/http-client';

/**
 * Vector sessions (`/v1/vectors`): numEnvs sub-envs stepped by one request on batched pages.
 * Each sub-env's episode must be the one a plain session plays with the same seed and actions,
 * the observations come as one block per kind, infos carry only what `include` asks for, and
 * seeds follow Gymnasium (sub-env i: seed + i, then a sequence of its own).
 */

let server: GymServer;
beforeAll(async () => {
  server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 8 }, maxSessions: 8 } });
});
afterAll(async () => {
  await server?.close();
});

const request = httpClient(() => server.url);
/** A JSON call; `binary` asks for the binary observation payload. */
const call = (method: string, path: string, body?: unknown, binary = false): Promise<Answer> =>
  request(method, path, { body, headers: { accept: binary ? 'application/octet-stream' : 'application/json' } });

type Bytes = { encoding: 'base64'; data: string } | { encoding: 'binary'; offset: number; length: number };
function bytesOf(field: Bytes, payload: Buffer): Buffer {
  return field.encoding === 'binary' ? payload.subarray(field.offset, field.offset + field.length) : Buffer.from(field.data, 'base64');
}

/** Rows of a float32 block, as numbers (what the client's numpy.frombuffer reads). */
function rows(field: Bytes & { shape: [number, number] }, payload: Buffer): number[][] {
  const b = bytesOf(field, payload);
  const [n, d] = field.shape;
  return Array.from({ length: n }, (_, i) => Array.from({ length: d }, (_, j) => b.readFloatLE((i * d + j) * 4)));
}

async function createVector(body: Record<string, unknown>) {
  const a = await call('POST', '/v1/vectors', { game: 'snake', ...body });
  expect(a.status, JSON.stringify(a.json)).toBe(201);
  return conforms(CreateVectorResponse, a.json);
}

/** A step answer in either encoding, checked against its schema, with the payload its byte fields point into. */
async function vectorCall<T extends z.ZodType>(schema: T, path: string, body: unknown, binary: boolean): Promise<{ json: z.infer<T>; payload: Buffer }> {
  const a = await call('POST', path, body, binary);
  expect(a.status, a.json ? JSON.stringify(a.json) : '').toBe(200);
  if (!binary) return { json: conforms(schema, a.json), payload: Buffer.alloc(0) };
  const { json, payload } = decodeFrame(a.bytes);
  return { json: conforms(schema, json), payload };
}

describe('vector sessions over HTTP', () => {
  it("plays each sub-env's episode as a session with its seed does, with next-step autoreset", async () => {
    const n = 3;
    const steps = 5;
    const actions = Array.from({ length: steps + 1 }, (_, t) => Array.from({ length: n }, (_, i) => (t + i) % 4));
    const created = await createVector({ numEnvs: n, seed: 40, observation: 'vector', maxSteps: steps, include: ['record'] });
    expect(created.vector).toMatchObject({ numEnvs: n, batched: true, autoreset: 'next-step' });
    const id = created.vector.id;
    const reset = await vectorCall(VectorResetResponse, `/v1/vectors/${id}/reset`, {}, true);
    expect(reset.json.infos.map((i) => i.seed)).toEqual([40, 41, 42]);
    expect(reset.json.infos.every((i) => !('state' in i))).toBe(true);
    const seen: { vector: number[][]; rewards: number[]; done: boolean[] }[] = [
      { vector: rows(reset.json.observations.vector!, reset.payload), rewards: [], done: [] },
    ];
    const records: unknown[] = [];
    for (let t = 0; t < steps; t++) {
      const r = await vectorCall(VectorStepResponse, `/v1/vectors/${id}/step`, { actions: actions[t] }, t % 2 === 0);
      seen.push({
        vector: rows(r.json.observations.vector!, r.payload),
        rewards: r.json.rewards,
        done: r.json.truncated.map((u, i) => u || r.json.terminated[i]),
      });
      expect(r.json.infos.every((i) => !('state' in i))).toBe(true);
      for (const info of r.json.infos) if (info.episode) records.push(info.episode);
    }
    // Every sub-env ran out of its budget on the last step (Snake lasts longer than 5 steps here).
    expect(seen.at(-1)!.done).toEqual([true, true, true]);
    expect(records).toHaveLength(n);
    for (const rec of records) expect(EpisodeRecord.safeParse(rec).success).toBe(true);
    // next-step: the step after resets them, actions ignored, reward 0, flagged, each on a seed of its own sequence.
    const next = await vectorCall(VectorStepResponse, `/v1/vectors/${id}/step`, { actions: actions[steps] }, false);
    expect(next.json.rewards).toEqual([0, 0, 0]);
    expect(next.json.infos.map((i) => i.autoreset)).toEqual([true, true, true]);
    const nextSeeds = next.json.infos.map((i) => i.seed!);
    expect(new Set([...nextSeeds, 40, 41, 42]).size).toBe(6);

    // The same episodes in plain sessions (one per seed), step for step.
    for (let i = 0; i < n; i++) {
      const s = await call('POST', '/v1/sessions', { game: 'snake', seed: 40 + i, observation: 'vector', maxSteps: steps });
      const sid = (s.json as { session: { id: string } }).session.id;
      const first = (await call('POST', `/v1/sessions/${sid}/reset`, {})).json as { observation: { vector: number[] } };
      expect(first.observation.vector, `env ${i} reset`).toEqual(seen[0].vector[i]);
      let last: z.infer<typeof StepResponse> | null = null;
      for (let t = 0; t < steps; t++) {
        last = conforms(StepResponse, (await call('POST', `/v1/sessions/${sid}/step`, { action: actions[t][i] })).json);
        expect(last.observation.vector, `env ${i} step ${t + 1}`).toEqual(seen[t + 1].vector[i]);
        expect(last.reward).toBe(seen[t + 1].rewards[i]);
      }
      // A plain session includes the state and the record unless told otherwise, byte for byte the vector's record.
      expect(last!.info.state).toBeDefined();
      expect(JSON.stringify(last!.info.episode)).toBe(JSON.stringify(records.find((r) => (r as { seed: number }).seed === 40 + i)));
      await call('DELETE', `/v1/sessions/${sid}`);
    }
    const closed = conforms(CloseVectorResponse, (await call('DELETE', `/v1/vectors/${id}`)).json);
    // The three episodes the autoreset started were still running: recorded as truncated, closed by the client.
    expect(closed.outcomes.map((o) => [o.index, o.status, o.cause?.code, o.episode?.seed])).toEqual(nextSeeds.map((s, i) => [i, 'truncated', 'CLOSED', s]));
    const gone = await call('POST', `/v1/vectors/${id}/step`, { actions: [0, 0, 0] });
    expect(gone.status).toBe(410);
  });

  it('never gives two sub-envs the same episode seed, over several episodes and a reseeding reset', async () => {
    const n = 4;
    const { vector } = await createVector({ numEnvs: n, seed: 7, observation: 'vector', maxSteps: 2 });
    const seeds: number[] = [];
    const collect = (infos: { seed?: number }[]) => infos.forEach((i) => i.seed !== undefined && seeds.push(i.seed));
    collect((await vectorCall(VectorResetResponse, `/v1/vectors/${vector.id}/reset`, {}, true)).json.infos);
    for (let t = 0; t < 9; t++) collect((await vectorCall(VectorStepResponse, `/v1/vectors/${vector.id}/step`, { actions: [0, 1, 2, 3] }, true)).json.infos);
    // A reset with a seed reseeds each sub-env (seed + i); with a list, each its own (null: its sequence goes on).
    const reseeded = (await vectorCall(VectorResetResponse, `/v1/vectors/${vector.id}/reset`, { seed: 1000 }, true)).json.infos;
    expect(reseeded.map((i) => i.seed)).toEqual([1000, 1001, 1002, 1003]);
    collect(reseeded);
    for (let t = 0; t < 3; t++) collect((await vectorCall(VectorStepResponse, `/v1/vectors/${vector.id}/step`, { actions: [0, 1, 2, 3] }, true)).json.infos);
    // Budget 2, next-step: 9 steps end and restart every sub-env three times (4 episodes), 3 after the reset once (2).
    expect(seeds.length).toBe(4 * 4 + 4 * 2);
    expect(new Set(seeds).size).toBe(seeds.length);
    const listed = (await vectorCall(VectorResetResponse, `/v1/vectors/${vector.id}/reset`, { seed: [5, null, 6, null] }, false)).json.infos;
    expect(listed[0].seed).toBe(5);
    expect(listed[2].seed).toBe(6);
    expect(seeds).not.toContain(listed[1].seed);
    const status = conforms(VectorStatusJson, (await call('GET', `/v1/vectors/${vector.id}`)).json);
    expect(status.totalSteps).toBe(12);
    expect(status.instancesPerPage).toBeGreaterThanOrEqual(1);
    await call('DELETE', `/v1/vectors/${vector.id}`);
  });

  it('sends pixels as one block, states only when asked, and same-step finals', async () => {
    const { vector } = await createVector({
      numEnvs: 2,
      seed: 3,
      observation: ['state', 'pixels'],
      pixels: { width: 84, height: 84, grayscale: true },
      maxSteps: 2,
      autoreset: 'same-step',
      include: ['state'],
    });
    const reset = await vectorCall(VectorResetResponse, `/v1/vectors/${vector.id}/reset`, {}, true);
    const px = reset.json.observations.pixels!;
    expect(px.shape).toEqual([2, 84, 84, 1]);
    expect(bytesOf(px, reset.payload).byteLength).toBe(2 * 84 * 84);
    expect(reset.json.observations.state).toHaveLength(2);
    expect(reset.json.infos[0].state).toBeDefined();
    await vectorCall(VectorStepResponse, `/v1/vectors/${vector.id}/step`, { actions: [0, 0] }, true);
    const ended = await vectorCall(VectorStepResponse, `/v1/vectors/${vector.id}/step`, { actions: [0, 0] }, false);
    expect(ended.json.truncated).toEqual([true, true]);
    // same-step: the new episode's first observation, the last one and its info beside it (no record: not included).
    for (const info of ended.json.infos) {
      expect(info.finalInfo?.step).toBe(2);
      expect(info.finalInfo?.episode).toBeUndefined();
      expect(info.finalObservation?.pixels).toMatchObject({ width: 84, height: 84, channels: 1 });
      expect(info.seed).toBeGreaterThanOrEqual(0);
    }
    await call('DELETE', `/v1/vectors/${vector.id}`);
  });

  it("gives a session's infos only what it includes", async () => {
    const plays = async (include?: string[]) => {
      const s = await call('POST', '/v1/sessions', { game: 'snake', seed: 9, observation: 'vector', maxSteps: 3, ...(include ? { include } : {}) });
      const sid = (s.json as { session: { id: string } }).session.id;
      const reset = (await call('POST', `/v1/sessions/${sid}/reset`, {})).json as { info: Record<string, unknown> };
      const steps = [];
      for (let t = 0; t < 3; t++) steps.push(conforms(StepResponse, (await call('POST', `/v1/sessions/${sid}/step`, { action: t })).json));
      await call('DELETE', `/v1/sessions/${sid}`);
      return { reset: reset.info, last: steps[2] };
    };
    const full = await plays();
    expect(full.reset.state).toBeDefined();
    expect(full.last.info.state).toBeDefined();
    expect(EpisodeRecord.safeParse(full.last.info.episode).success).toBe(true);
    const lean = await plays([]);
    expect(lean.reset.state).toBeUndefined();
    expect(lean.last.info.state).toBeUndefined();
    expect(lean.last.info.episode).toBeUndefined();
    expect(lean.last.info.outcome?.status).toBe('complete');
    expect(lean.last.observation.vector).toEqual(full.last.observation.vector);
    const recordOnly = await plays(['record']);
    expect(recordOnly.last.info.state).toBeUndefined();
    expect(JSON.stringify(recordOnly.last.info.episode)).toBe(JSON.stringify(full.last.info.episode));
  });

  it('refuses bad requests with a clear error, before any sub-env steps', async () => {
    const err = (a: Answer) => [a.status, conforms(ErrorBody, a.json).error.code, conforms(ErrorBody, a.json).error.message];
    expect(err(await call('POST', '/v1/vectors', { game: 'snake', numEnvs: 0 }))).toEqual([400, 'INVALID_BODY', expect.stringMatching(/numEnvs/)]);
    expect(err(await call('POST', '/v1/vectors', { game: 'no-such-game', numEnvs: 2 }))).toEqual([400, 'UNKNOWN_GAME', expect.any(String)]);
    expect(err(await call('POST', '/v1/vectors', { game: 'snake', numEnvs: 2, include: ['everything'] }))).toEqual([
      400,
      'INVALID_BODY',
      expect.stringMatching(/include/),
    ]);
    const { vector } = await createVector({ numEnvs: 2, observation: 'vector', maxSteps: 3 });
    expect(err(await call('POST', `/v1/vectors/${vector.id}/step`, { actions: [0, 0] }))).toEqual([409, 'RESET_NEEDED', expect.any(String)]);
    await call('POST', `/v1/vectors/${vector.id}/reset`, {});
    expect(err(await call('POST', `/v1/vectors/${vector.id}/step`, { actions: [0] }))).toEqual([
      400,
      'INVALID_ACTION',
      expect.stringMatching(/1 actions for 2 envs/),
    ]);
    expect(err(await call('POST', `/v1/vectors/${vector.id}/step`, { actions: [0, 99] }))[0]).toBe(400);
    expect(err(await call('POST', `/v1/vectors/${vector.id}/reset`, { seed: [1, 2, 3] }))).toEqual([
      400,
      'INVALID_OPTIONS',
      expect.stringMatching(/3 seeds for 2 envs/),
    ]);
    const status = conforms(VectorStatusJson, (await call('GET', `/v1/vectors/${vector.id}`)).json);
    expect(status.totalSteps).toBe(0);
    expect(err(await call('GET', '/v1/vectors/vec_nope'))).toEqual([404, 'SESSION_NOT_FOUND', expect.any(String)]);
    await call('DELETE', `/v1/vectors/${vector.id}`);
    expect(err(await call('GET', `/v1/vectors/${vector.id}`))).toEqual([410, 'SESSION_CLOSED', expect.stringMatching(/closed/)]);
  });
});
