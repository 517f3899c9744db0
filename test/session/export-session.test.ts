import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { EXPORT_FORMATS, exportSession } from '../../src/session/export-session.js';
import { loadSession } from '../../src/session/load-session.js';
import { SessionBuilder } from './generate-session.js';

function session(secret = false) {
  const builder = new SessionBuilder(21);
  const tip = builder.turn(null, { small: true, outputScale: 0.01, parallelShare: 1 });
  builder.prompt(
    tip,
    secret ? 'deploy with OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD' : 'thanks',
  );
  return loadSession(Buffer.from(builder.jsonl()));
}

describe('exportSession', () => {
  it('writes a fixed key set per format', () => {
    const loaded = session();
    expect(Object.keys(exportSession(loaded, { to: 'sharegpt' }).line)).toEqual([
      'conversations',
      'timestamp',
      'model',
      'completed',
    ]);
    expect(Object.keys(exportSession(loaded, { to: 'openai' }).line)).toEqual(['messages']);
    expect(Object.keys(exportSession(loaded, { to: 'anthropic' }).line)).toEqual(['system', 'messages']);
    expect(exportSession(loaded, { to: 'sharegpt' }).line).toMatchObject({
      model: 'claude-opus-4-6',
      completed: false,
      timestamp: loaded.lastActivity,
    });
  });

  it('leaves every runtime and wire field of the source behind', () => {
    const loaded = session();
    for (const to of EXPORT_FORMATS) {
      const text = JSON.stringify(exportSession(loaded, { to }).line);
      for (const field of [
        'parentUuid',
        'isSidechain',
        'toolUseResult',
        'sessionId',
        'requestId',
        'cwd',
        'uuid',
      ])
        expect(text).not.toContain(`"${field}"`);
    }
  });

  it('masks secrets when asked, and reports them', () => {
    const loaded = session(true);
    for (const to of EXPORT_FORMATS) {
      const plain = exportSession(loaded, { to });
      expect(JSON.stringify(plain.line)).toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');
      const redacted = exportSession(loaded, { to, redact: true });
      expect(JSON.stringify(redacted.line)).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789ABCD');
      expect(redacted.findings.length).toBeGreaterThan(0);
    }
  });

  it('writes lines the codecs read back with every tool call and result', () => {
    const loaded = session();
    const calls = loaded.transcript.messages.flatMap((message) =>
      message.parts.filter((part) => part.type === 'tool-call'),
    );
    expect(calls.length).toBeGreaterThan(1);
    for (const to of EXPORT_FORMATS) {
      const document = decodeDocument(`${JSON.stringify(exportSession(loaded, { to }).line)}\n`);
      expect(document.format).toBe(to);
      const [back] = documentTranscripts(document);
      const backCalls = back?.messages.flatMap((message) =>
        message.parts.filter((part) => part.type === 'tool-call'),
      );
      const backResults = back?.messages.flatMap((message) =>
        message.parts.filter((part) => part.type === 'tool-result'),
      );
      expect(backCalls).toHaveLength(calls.length);
      expect(backResults).toHaveLength(calls.length);
    }
  });
});
