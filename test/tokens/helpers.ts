import fc from 'fast-check';
import type { Message } from '../../src/model/message.js';
import type { Part } from '../../src/model/part.js';
import type { Role } from '../../src/model/role.js';
import type { Transcript } from '../../src/model/transcript.js';
import type { PieceEncoder } from '../../src/tokens/exact-counter.js';

/** A message with the given parts. */
export function message(role: Role, ...parts: Part[]): Message {
  return { role, parts };
}

/** A text message. */
export function say(role: Role, text: string): Message {
  return message(role, { type: 'text', text });
}

/** A transcript of the given messages. */
export function transcriptOf(...messages: Message[]): Transcript {
  return { messages };
}

/** An encoder that records every piece it is given and counts one token per character. */
export function spyEncoder(name = 'spy'): PieceEncoder & { readonly pieces: string[] } {
  const pieces: string[] = [];
  return {
    name,
    pieces,
    countPiece(piece: string): number {
      pieces.push(piece);
      return piece.length;
    },
  };
}

/** Deterministic pseudo-random generator (mulberry32) for reproducible inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` characters drawn from `alphabet` with a fixed seed. */
export function randomText(length: number, alphabet: string, seed = length): string {
  const random = seededRandom(seed);
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** The pathological inputs of the linear-time guard. */
export const PATHOLOGICAL = {
  repeated: (length: number) => 'a'.repeat(length),
  hex: (length: number) => randomText(length, '0123456789abcdef'),
  base64: (length: number) =>
    randomText(length, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
} as const;

/**
 * A minimal but real byte-level BPE `tokenizer.json` (the GPT-2 byte alphabet plus a few merges and one added
 * special token), built in memory so tests need no download. `preTokenizer: false` drops the pre-tokenizer,
 * which makes the whole input one BPE word (the worst case for BPE cost).
 */
export function tinyTokenizerJson(
  options: { readonly preTokenizer?: boolean } = {},
): Record<string, unknown> {
  const bytes: number[] = [];
  for (let code = 33; code <= 126; code++) bytes.push(code);
  for (let code = 161; code <= 172; code++) bytes.push(code);
  for (let code = 174; code <= 255; code++) bytes.push(code);
  const chars = [...bytes];
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) {
    if (!bytes.includes(byte)) {
      bytes.push(byte);
      chars.push(256 + extra++);
    }
  }
  const vocab: Record<string, number> = {};
  chars.forEach((char, index) => {
    vocab[String.fromCharCode(char)] = index;
  });
  const merges = [
    ['Ġ', 't'],
    ['h', 'e'],
    ['Ġt', 'he'],
    ['t', 'he'],
    ['l', 'l'],
    ['o', 'r'],
    ['w', 'or'],
    ['Ġ', 'wor'],
    ['Ġwor', 'l'],
    ['Ġworl', 'd'],
  ];
  let id = 256;
  for (const [left, right] of merges) vocab[`${left}${right}`] = id++;
  return {
    version: '1.0',
    added_tokens: [
      {
        id,
        content: '<|endoftext|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      },
    ],
    normalizer: null,
    pre_tokenizer:
      options.preTokenizer === false
        ? null
        : { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel' },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: merges.map((pair) => pair.join(' ')),
    },
  };
}

const WORDS = (
  'the of and to in is that for it with as was on be by this are from at or an have not which but all ' +
  'file function error value return test build install request response message context token model agent ' +
  'configuration directory repository transcript compression summary implementation dependency'
).split(' ');

const word = fc.constantFrom(...WORDS);

/** English-like prose: sentences of common words. */
export const proseText = fc
  .array(fc.array(word, { minLength: 4, maxLength: 18 }), { minLength: 3, maxLength: 30 })
  .map((sentences) =>
    sentences.map((words) => `${words.join(' ').replace(/^./, (first) => first.toUpperCase())}.`).join(' '),
  );

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    fc.integer({ min: -1000000, max: 1000000 }),
    fc.boolean(),
    fc.array(word, { maxLength: 4 }).map((words) => words.join(' ')),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(word, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** JSON text, compact or pretty-printed, like tool-call arguments and API payloads. */
export const jsonText = fc
  .tuple(fc.dictionary(word, jsonValue, { minKeys: 3, maxKeys: 12 }), fc.constantFrom(0, 2))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

const identifier = fc
  .array(word, { minLength: 1, maxLength: 3 })
  .map((parts) =>
    parts.map((part, index) => (index === 0 ? part : part[0]?.toUpperCase() + part.slice(1))).join(''),
  );

/** Code-like lines: assignments, calls and returns with indentation. */
export const codeText = fc
  .array(
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), identifier, identifier, fc.integer({ min: 0, max: 999 }))
      .map(
        ([depth, left, right, number]) =>
          `${'  '.repeat(depth)}${
            number % 3 === 0
              ? `const ${left} = ${right}(${number});`
              : number % 3 === 1
                ? `if (${left} > ${number}) return ${right};`
                : `${left}.${right}('${left}', ${number});`
          }`,
      ),
    { minLength: 5, maxLength: 60 },
  )
  .map((lines) => lines.join('\n'));

/** Tool output: log lines with timestamps, paths, numbers and hashes. */
export const toolOutputText = fc
  .array(
    fc
      .tuple(
        identifier,
        identifier,
        fc.integer({ min: 0, max: 99999 }),
        fc.constantFrom('INFO', 'WARN', 'ERROR'),
      )
      .map(
        ([dir, file, number, level]) =>
          `2024-05-${String((number % 28) + 1).padStart(2, '0')} ${level} /src/${dir}/${file}.ts:${number % 500} ${file} took ${number} ms (${(number * 2654435761).toString(16)})`,
      ),
    { minLength: 3, maxLength: 60 },
  )
  .map((lines) => lines.join('\n'));
