import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDocument, encodeDocument, layoutFor } from '../../src/codecs/registry.js';
import { FORMAT_NAMES, type FormatName } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import { redactDocument, redactText, redactTranscript } from '../../src/redact/index.js';
import { fakeBody } from './fixtures.js';
import {
  hiddenParts,
  LOOK_ALIKES,
  PLANTABLE,
  TEXT_CONTAINERS,
  transcriptWith,
  transcriptWithToken,
  withLookAlikes,
} from './planting.js';

function fileOf(transcript: Transcript, format: FormatName): string {
  return encodeDocument({
    format,
    layout: layoutFor(format, 1),
    entries: [{ kind: 'transcript', transcript }],
  });
}

/** Adds `x_note: note` to every object of the wire file that looks like a message or record. */
function withWireExtra(file: string, format: FormatName, note: string): string {
  const mark = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(mark);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([key, inner]) => [key, mark(inner)] as const);
    const record = Object.fromEntries(entries);
    return 'role' in record || 'from' in record || 'type' in record ? { ...record, x_note: note } : record;
  };
  const layout = layoutFor(format, 1);
  if (layout === 'json') return `${JSON.stringify(mark(JSON.parse(file)))}\n`;
  return `${file
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.stringify(mark(JSON.parse(line))))
    .join('\n')}\n`;
}

describe('a secret planted in text containers', () => {
  for (const [place, contain] of Object.entries(TEXT_CONTAINERS)) {
    it(`is gone from ${place}, and the look-alikes stay`, () => {
      for (const positive of PLANTABLE) {
        const text = contain(withLookAlikes(positive.text));
        for (const part of hiddenParts(positive)) expect(text).toContain(part);
        const out = redactText(text).text;
        for (const part of hiddenParts(positive))
          expect(out, `${positive.name} in ${place}`).not.toContain(part);
        for (const lookAlike of LOOK_ALIKES)
          expect(out, `${lookAlike} next to ${positive.name}`).toContain(lookAlike);
        if (place !== 'plain text' && place !== 'a Markdown code block')
          expect(() => JSON.parse(out)).not.toThrow();
      }
    });
  }
});

describe('a secret planted in every place of a transcript, for every codec', () => {
  for (const format of FORMAT_NAMES) {
    it(`is gone from every place of a ${format} file, its codec meta included`, () => {
      for (const positive of PLANTABLE) {
        const planted = withWireExtra(fileOf(transcriptWith(positive.text), format), format, positive.text);
        const document = decodeDocument(planted, { format });
        const control = encodeDocument(document);
        for (const part of hiddenParts(positive)) expect(control).toContain(part);
        const out = encodeDocument(redactDocument(document).document);
        for (const part of hiddenParts(positive))
          expect(out, `${positive.name} in ${format}`).not.toContain(part);
        expect(redactDocument(decodeDocument(out, { format })).findings).toEqual([]);
      }
    });
  }

  it.each(FORMAT_NAMES)('is gone from header objects, header pairs, URLs and image URLs (%s)', (format) => {
    const token = fakeBody(910, 40);
    const password = 'Mirror-Pw-77';
    const document = decodeDocument(fileOf(transcriptWithToken(token, password), format), { format });
    const out = encodeDocument(redactDocument(document).document);
    expect(out).not.toContain(token.slice(6, -4));
    expect(out).not.toContain(password);
  });

  it('stays gone whatever format the redacted transcript is then converted to', () => {
    for (const positive of PLANTABLE) {
      const { transcript } = redactTranscript(transcriptWith(positive.text));
      for (const format of FORMAT_NAMES) {
        const out = fileOf(transcript, format);
        for (const part of hiddenParts(positive))
          expect(out, `${positive.name} → ${format}`).not.toContain(part);
      }
    }
  });
});

describe('planting, as a property', () => {
  const containers = Object.values(TEXT_CONTAINERS);
  it('masks any planted secret under any nesting of containers and keeps the look-alikes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PLANTABLE),
        fc.array(fc.constantFrom(...containers), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('', 'Output:\n', '$ cat notes.txt\n'),
        (positive, chain, prefix) => {
          const text = chain.reduce(
            (inner, contain) => contain(inner),
            `${prefix}${withLookAlikes(positive.text)}`,
          );
          const out = redactText(text).text;
          for (const part of hiddenParts(positive)) expect(out).not.toContain(part);
          for (const lookAlike of LOOK_ALIKES) expect(out).toContain(lookAlike);
          expect(redactText(out).text).toBe(out);
        },
      ),
      { numRuns: 400 },
    );
  });
});
