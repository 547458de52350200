/** `npm run build:python-games`: writes the Python package's list of games (gym/build/python-games.ts). */
import { writeFileSync } from 'node:fs';
import { PYTHON_GAMES_PATH, pythonGamesJson } from '../gym/build';

writeFileSync(PYTHON_GAMES_PATH, pythonGamesJson());
console.log(`wrote ${PYTHON_GAMES_PATH}`);
