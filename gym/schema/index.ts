/**
 * The gym's data, as zod schemas and their types: actions, game manifests, episode and step
 * records (and canonicalJson), settings, the built-games catalog, env options and the verifier
 * state's shape. Browser-safe. See gym/README.md.
 */
export * from './action';
export * from './manifest';
export * from './records';
export * from './settings';
export { VERIFIER_STATE_SHAPE, verifierStateProblems } from './verifier-state';
export { Catalog, CatalogEntry } from '../catalog-schema';
export { EnvOptions, ObservationKind, PixelOptions, type EnvOptionsInput } from '../env/options';
