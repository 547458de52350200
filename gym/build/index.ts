/** Building the games, their verifier bundles, the in-page runtime and the trainer bundle into public/. */
export { buildGames } from './build-games';
export { TRAINER_BUNDLE_PATH, bundleTrainer } from './trainer-bundle';
export { PYTHON_GAMES_PATH, pythonGameList, pythonGamesJson, type PythonGame } from './python-games';
export { PYTHON_TYPES_PATH, pythonApiTypes } from './python-types';
