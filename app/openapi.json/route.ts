import { openApiDocument } from '../../gym/server/openapi';

/** The gym's HTTP API, described for clients in any language (the same document `arcade-gym serve` serves). */
export function GET(): Response {
  return Response.json(openApiDocument());
}
