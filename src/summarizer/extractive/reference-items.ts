import { bump, type Item, matchesFocus, PRIORITY, type Priority } from './items.js';
import { unbullet } from './previous-checkpoint.js';
import type { RecordInput } from './record-items.js';
import { textAfterSpace } from './sentences.js';

// Dependency folders, build output and assets: paths an agent rarely needs back, listed last.
const NOISE_PATH =
  /(?:^|[/\\])(?:node_modules|vendor|\.git|dist|build|target|out|__pycache__|\.venv|venv|site-packages|deps|_build|\.next|\.nuxt|coverage|\.cache|bower_components)(?:[/\\]|$)|\.(?:css|scss|svg|png|jpe?g|gif|ico|webp|woff2?|ttf|eot|map|lock)$|\.min\.js$/i;

/** True for a path in a dependency folder, build output or an asset: listed last, left out first. */
export function isNoisePath(path: string): boolean {
  return NOISE_PATH.test(path);
}

/**
 * A `- label: values` line read as `/^\s*[-*]\s+([^:]{1,40}):\s+(.+)$/` reads it, in linear time (the tail is
 * read by {@link textAfterSpace}; every label the regex could try ends at the same colon, so has the same tail).
 */
export function labelledLine(line: string): { label: string; values: string } | undefined {
  const head = /^\s*[-*]\s+([^:]{1,40}):/.exec(line);
  if (head === null) return undefined;
  const values = textAfterSpace(line, head[0].length);
  return values === undefined ? undefined : { label: head[1] as string, values };
}

/**
 * The References section: the earlier checkpoint's references (`earlier`, its lines), then files read but not
 * changed, other paths, URLs, commands, tools and the code spans the assistant named, in that order, each ranked up
 * when it matches the focus topic.
 */
export function referenceItems(input: RecordInput, earlier: readonly string[]): Item[] {
  const items: Item[] = [];
  const { artifacts, facts } = input;
  const changed = new Set<string>();
  const read = new Set<string>();
  for (const action of facts.actions) {
    if (action.effect !== undefined) for (const path of action.paths) changed.add(path);
    if (action.verb === 'READ') for (const path of action.paths) read.add(path);
  }
  const terms = input.focusTerms;
  for (const line of earlier) {
    const labelled = labelledLine(line);
    if (labelled === undefined) addReference(items, terms, 'earlier', unbullet(line), PRIORITY.detail, false);
    else
      for (const value of labelled.values.split(/, |; /))
        addReference(items, terms, labelled.label, value.trim(), PRIORITY.artifact, true);
  }
  for (const path of read)
    if (!changed.has(path))
      addReference(items, terms, 'read', path, isNoisePath(path) ? PRIORITY.noise : PRIORITY.artifact, true);
  for (const path of artifacts.paths) {
    if (changed.has(path) || read.has(path)) continue;
    addReference(items, terms, 'paths', path, isNoisePath(path) ? PRIORITY.noise : PRIORITY.artifact, true);
  }
  for (const url of artifacts.urls) addReference(items, terms, 'URLs', url, PRIORITY.artifact, true);
  for (const command of artifacts.commands)
    addReference(items, terms, 'commands', `\`${command}\``, PRIORITY.artifact, true);
  for (const tool of artifacts.toolNames) addReference(items, terms, 'tools', tool, PRIORITY.artifact, true);
  for (const name of facts.named) addReference(items, terms, 'named', `\`${name}\``, PRIORITY.detail, false);
  return items;
}

/** Appends a reference at the next position, ranked up when it matches the focus topic. */
function addReference(
  items: Item[],
  terms: readonly string[],
  group: string,
  text: string,
  priority: Priority,
  artifact: boolean,
): void {
  const order = items.length;
  items.push({
    section: 'references',
    group,
    text,
    priority: bump(priority, matchesFocus(text, terms)),
    weight: order,
    order,
    artifact,
  });
}
