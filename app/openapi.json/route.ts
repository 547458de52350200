import { openApiDocument } from '../../gym/server';
import { siteOpenApi } from '../../leaderboard/openapi';

/**
 * The site's HTTP APIs, described for clients in any language: the gym API (the same document
 * `arcade-gym serve` serves) and the leaderboard's (tickets, submissions, their status).
 */
export function GET(): Response {
  return Response.json(siteOpenApi(openApiDocument()));
}
