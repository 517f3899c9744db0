import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/load-session.js';
import { renderReplay, replayChunks } from '../../src/session/render-replay.js';
import { SessionBuilder } from './generate-session.js';

function session(text: string, seed: number) {
  const builder = new SessionBuilder(seed);
  let at = builder.turn(null, { outputScale: 0.5 });
  for (let turn = 0; turn < 40; turn++) at = builder.turn(at, { outputScale: 0.5 });
  const lines = `${builder.jsonl()}${JSON.stringify({
    parentUuid: at,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid: 'ffffffff-0000-4000-8000-000000000000',
    sessionId: 'replay-chunks',
    timestamp: '2025-11-17T23:59:00.000Z',
  })}\n`;
  return loadSession(new TextEncoder().encode(lines), {});
}

/** The text as one string, built the way the renderer did before it streamed: lines joined, end trimmed. */
function reference(chunks: readonly string[]): string {
  return `${chunks.join('').trimEnd()}\n`;
}

describe('replayChunks', () => {
  it('hands out a long replay in bounded chunks that join to the whole text', () => {
    const loaded = session('last words', 7);
    const chunks = [...replayChunks(loaded, { full: true })];
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeLessThan(200 * 1024);
    expect(chunks.join('')).toBe(renderReplay(loaded, { full: true }));
    expect(chunks.join('')).toBe(reference(chunks));
  });

  it('keeps whitespace that spans a chunk boundary and trims only the very end', () => {
    const blank = ' \n'.repeat(70 * 1024);
    const loaded = session(`before${blank}after`, 8);
    const text = [...replayChunks(loaded, { full: true })].join('');
    expect(text).toContain(`before${blank.replaceAll('\n', '\n  ')}after`);
    expect(text.endsWith('dead branches: 0\n')).toBe(true);
  });
});
