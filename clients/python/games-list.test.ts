import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PYTHON_GAMES_PATH, pythonGamesJson } from '../../gym/build';

describe('the Python package registers the games of games/', () => {
  it('arcade_gym/games.json is what `npm run build:python-games` writes now', () => {
    expect(readFileSync(PYTHON_GAMES_PATH, 'utf8'), 'run npm run build:python-games').toBe(pythonGamesJson());
  });
});
