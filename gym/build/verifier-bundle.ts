import vm from 'node:vm';
import { bundleScript, verifierStub } from './bundle';

/**
 * Bundles a verifier (an ES module, .ts or .js, whose default export is
 * `{ gameId, read(win), features: { names, encode } }`) into the standalone in-page script the
 * gym ships, ours and third-party ones alike. Its sha256 is the verifier checksum of every record.
 */
export function bundleVerifier(file: string, outfile: string, opts: { quiet?: boolean } = {}): Promise<string> {
  return bundleScript({ contents: verifierStub(file) }, outfile, opts);
}

export interface VerifierInfo {
  gameId: string;
  featureNames: string[];
  /** Whether it defines `actionMask(state)` (Verifier in verifiers/define.ts). */
  actionMask: boolean;
}

/**
 * Runs a verifier bundle in a bare `vm` context (no page, no Node) and checks it has the shape
 * of a verifier: what the catalog then says is what the page gets, and a verifier that needs
 * anything but the page it reads fails here rather than in a page.
 */
export function inspectVerifierBundle(js: string, where: string): VerifierInfo {
  let registered: unknown = null;
  const sandbox: Record<string, unknown> = { __arcadeRegisterVerifier: (v: unknown) => (registered = v) };
  try {
    vm.runInNewContext(js, sandbox, { timeout: 2000, filename: where });
  } catch (e) {
    const why = e instanceof Error ? e.message : e;
    throw new Error(`${where}: the verifier failed to load outside a page (${why}); it must only define functions at load time, not read the page`);
  }
  const v = registered as { gameId?: unknown; read?: unknown; features?: { names?: unknown; encode?: unknown }; actionMask?: unknown } | null;
  const problems: string[] = [];
  if (!v || typeof v !== 'object') problems.push('it has no default export object');
  else {
    if (typeof v.gameId !== 'string') problems.push('gameId is not a string');
    if (typeof v.read !== 'function') problems.push('read(win) is not a function');
    const names = v.features?.names;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) problems.push('features.names is not an array of strings');
    if (typeof v.features?.encode !== 'function') problems.push('features.encode(state) is not a function');
    if (v.actionMask !== undefined && typeof v.actionMask !== 'function') problems.push('actionMask is given but is not a function of the state');
  }
  if (problems.length) {
    throw new Error(
      `${where} is not a verifier: ${problems.join('; ')}. Expected \`export default { gameId, read(win), features: { names, encode(state) } }\``,
    );
  }
  return { gameId: v!.gameId as string, featureNames: [...(v!.features!.names as string[])], actionMask: typeof v!.actionMask === 'function' };
}
