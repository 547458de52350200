import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../gym/server';
import { leaderboardOpenApi, siteOpenApi } from './openapi';

/** Every `$ref` in a document, as the component name it points at. */
function refs(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refs(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value.replace('#/components/schemas/', ''));
      else refs(value, out);
    }
  }
  return out;
}

describe("the site's OpenAPI document", () => {
  const site = siteOpenApi(openApiDocument()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };

  it('holds both APIs, and every reference names a schema it defines', () => {
    expect(Object.keys(site.paths)).toEqual(expect.arrayContaining(['/v1/sessions/{id}/step', '/api/tickets', '/api/runs']));
    const missing = [...refs(site)].filter((name) => !(name in site.components.schemas));
    expect(missing).toEqual([]);
  });

  it('defines the episode record once, the same in the gym and the leaderboard documents', () => {
    const gym = openApiDocument() as { components: { schemas: Record<string, unknown> } };
    const board = leaderboardOpenApi().schemas;
    expect(board.EpisodeRecord).toEqual(gym.components.schemas.EpisodeRecord);
    expect(site.components.schemas.EpisodeRecord).toEqual(gym.components.schemas.EpisodeRecord);
  });

  it('refuses a schema name the two define differently, naming it', () => {
    const gym = openApiDocument() as { components: { schemas: Record<string, unknown> } };
    const altered = { ...gym, components: { ...gym.components, schemas: { ...gym.components.schemas, EpisodeRecord: { type: 'string' } } } };
    expect(() => siteOpenApi(altered)).toThrow(/schema "EpisodeRecord" is defined differently/);
  });
});
