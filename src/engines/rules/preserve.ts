import { type ArtifactKind, extractArtifacts } from '../../inspect/artifacts.js';
import type { Message } from '../../model/message.js';

const LABELS: readonly (readonly [ArtifactKind, string])[] = [
  ['toolNames', 'tools'],
  ['commands', 'commands'],
  ['paths', 'paths'],
  ['urls', 'urls'],
  ['errorLines', 'errors'],
];

/**
 * The artifacts (tool names, commands, paths, URLs, error lines, as `extractArtifacts` defines them) of the
 * replaced messages that `text` does not already contain, rendered as ` · paths: a, b · errors: "x"` to append
 * to a collapsed line or marker. Every artifact is written verbatim, so the line plus this suffix keeps all of
 * them: the guarantee that collapsing never loses a path, URL, tool name or error message.
 */
export function preservedSuffix(replaced: readonly Message[], text: string): string {
  const artifacts = extractArtifacts(replaced);
  let out = '';
  for (const [kind, label] of LABELS) {
    const missing = [...artifacts[kind]].filter((artifact) => !text.includes(artifact));
    if (missing.length === 0) continue;
    out += ` · ${label}: ${missing.map((artifact) => render(kind, artifact)).join(kind === 'errorLines' ? ' | ' : ', ')}`;
  }
  return out;
}

function render(kind: ArtifactKind, artifact: string): string {
  switch (kind) {
    case 'commands':
      return `\`${artifact}\``;
    case 'errorLines':
      return `"${artifact}"`;
    case 'paths':
    case 'urls':
    case 'toolNames':
      return artifact;
  }
}
