import { buildGames } from '../build/build-games';

/** Tests run against freshly built games, so a stale public/ can never make them pass. */
export default async function setup(): Promise<void> {
  await buildGames();
}
