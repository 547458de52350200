import { openApiDocument } from '../../gym/server';
import { leaderboardOpenApi } from '../../leaderboard/openapi';

/**
 * The site's HTTP APIs, described for clients in any language: the gym API (the same document
 * `arcade-gym serve` serves) and the leaderboard's (tickets, submissions, their status).
 */
export function GET(): Response {
  const gym = openApiDocument() as { info: { description?: string }; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
  const board = leaderboardOpenApi();
  for (const name of Object.keys(board.schemas)) {
    if (name in gym.components.schemas) throw new Error(`OpenAPI: schema "${name}" is defined by both the gym and the leaderboard`);
  }
  return Response.json({
    ...gym,
    info: { ...gym.info, description: `${gym.info.description ?? ''}\n\nLeaderboard: ${board.description}` },
    // The gym's paths are served by `arcade-gym serve`; the leaderboard's by this site.
    paths: { ...gym.paths, ...Object.fromEntries(Object.entries(board.paths).map(([p, item]) => [p, { servers: [{ url: '/', description: 'the leaderboard site' }], ...(item as object) }])) },
    components: { ...gym.components, schemas: { ...gym.components.schemas, ...board.schemas } },
  });
}
