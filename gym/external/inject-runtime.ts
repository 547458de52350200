/**
 * The entry page of a third-party game as the site serves it: the game's own page with two
 * script tags put first in <head>, as every page of ours has them (gym/build/build-games.ts).
 * With ?arcade-seed= in the URL the runtime puts the page in virtual time (the site's player
 * and replays use that); without it the runtime does nothing and the game plays in real
 * time. The gym's env injects the same runtime before any script anyway, so these tags change
 * nothing there (the runtime installs once; the verifier registers the same object again).
 */
export function injectRuntimeTags(html: string, gameId: string): string {
  const tags = `<script src="/runtime/arcade-runtime.js"></script><script src="/verifiers/${gameId}.js"></script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tags + html.slice(head.index + head[0].length);
  // No <head>: anything before <body> is parsed into one; after a doctype, to keep standards mode.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + tags + html.slice(at);
}
