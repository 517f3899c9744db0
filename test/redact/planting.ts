/**
 * Where secrets hide, for the planting suites: text containers (JSON at depth, JSON escaped in JSON strings,
 * Markdown), places in a transcript (text, reasoning, tool arguments, tool results, header objects, URLs,
 * codec meta), and look-alikes that must survive next to them.
 */
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { hiddenPart, POSITIVES, type Positive } from './positives.js';

const HEX = '0123456789abcdef';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Random-looking strings from a generator of their own (xorshift), so none repeats a fake secret's body. */
function lookAlikeBody(seed: number, length: number, alphabet: string): string {
  let state = seed * 7919 + 17;
  let out = '';
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out += alphabet[(state >>> 0) % alphabet.length];
  }
  return out;
}

/** Strings shaped like secrets that are not: they must come out unchanged. */
export const LOOK_ALIKES: readonly string[] = [
  lookAlikeBody(700, 40, HEX),
  lookAlikeBody(701, 7, HEX),
  '123e4567-e89b-12d3-a456-426614174000',
  `sha256:${lookAlikeBody(702, 64, HEX)}`,
  `sha512-${lookAlikeBody(703, 86, BASE64)}==`,
  `data:image/png;base64,iVBORw0KGgo${lookAlikeBody(704, 300, BASE64)}=`,
  'toolu_01A09q90qw90lq917835lq9',
  'msg_01XFDUDYJgAACzvnptvVoYEL',
  'call_abc123DEF456ghi789',
  'the tokenizer counts tokens; max_tokens caps the answer',
  'v4.1.12',
  '2026-01-10T09:00:00.000Z',
];

/** The secrets a positive example must lose, as the part of them that may not survive. */
export function hiddenParts(positive: Positive): string[] {
  return positive.secrets.map(hiddenPart);
}

/** Positives whose secrets JSON writes as they are, so they can be looked for in JSON text. */
export const PLANTABLE: readonly Positive[] = POSITIVES.filter((positive) =>
  positive.secrets.every((secret) => JSON.stringify(secret) === `"${secret}"`),
);

/** A snippet after look-alikes on a line of their own (a truncated private key takes all that follows it). */
export function withLookAlikes(snippet: string): string {
  return `Refs: ${LOOK_ALIKES.join(' ')}\n\n${snippet}\n`;
}

/** Ways of putting text inside other text. */
export const TEXT_CONTAINERS: Readonly<Record<string, (text: string) => string>> = {
  'plain text': (text) => text,
  'a JSON string at depth': (text) => JSON.stringify({ a: { b: [{ c: text }] } }),
  'a pretty-printed JSON document': (text) => JSON.stringify({ result: { output: text } }, null, 2),
  'JSON escaped in a JSON string': (text) =>
    JSON.stringify({ body: JSON.stringify({ data: { note: text } }) }),
  'JSON escaped twice': (text) =>
    JSON.stringify({ request: JSON.stringify({ body: JSON.stringify({ note: text }) }) }),
  'a Markdown code block': (text) => `Here is the output:\n\n\`\`\`\n${text}\n\`\`\`\n`,
};

/** Places of a transcript, each holding `text` once (or a header value built from a bare secret). */
export function transcriptWith(text: string): Transcript {
  const messages: Message[] = [
    { role: 'system', parts: [{ type: 'text', text: 'You are a coding agent.' }] },
    { role: 'user', parts: [{ type: 'text', text: `Please check this:\n${text}` }] },
    {
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: `The user pasted:\n${text}` },
        {
          type: 'tool-call',
          id: 'call_1',
          name: 'run',
          arguments: JSON.stringify({ command: text, payload: { items: [{ note: text }] } }),
        },
        {
          type: 'tool-call',
          id: 'call_2',
          name: 'post',
          arguments: JSON.stringify({ body: JSON.stringify({ note: text }) }),
        },
      ],
    },
    {
      role: 'tool',
      parts: [
        { type: 'tool-result', callId: 'call_1', name: 'run', content: [{ type: 'text', text }] },
        {
          type: 'tool-result',
          callId: 'call_2',
          name: 'post',
          content: [{ type: 'text', text: JSON.stringify({ stdout: text, exitCode: 0 }) }],
        },
      ],
    },
    { role: 'assistant', parts: [{ type: 'text', text: `Done:\n${text}` }] },
  ];
  return { messages };
}

/** A transcript holding a bare token in header objects, header pairs, URLs and codec metadata. */
export function transcriptWithToken(token: string, password: string): Transcript {
  return {
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Call the API.' }] },
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool-call',
            id: 'call_1',
            name: 'http',
            arguments: JSON.stringify({
              url: `https://api.example.com/v1/items?access_token=${token}&page=2`,
              headers: { Authorization: `Bearer ${token}`, 'X-Api-Key': token, Cookie: `sid=${token}` },
              pairs: [['Proxy-Authorization', `Basic ${token}`]],
              mirror: `https://deploy:${password}@mirror.example.com/repo.git`,
            }),
          },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            callId: 'call_1',
            name: 'http',
            content: [
              {
                type: 'text',
                text: JSON.stringify({ request: { headers: { authorization: `token ${token}` } } }),
              },
              {
                type: 'image',
                source: { kind: 'url', url: `https://cdn.example.com/a.png?X-Amz-Signature=${token}` },
              },
            ],
          },
        ],
      },
    ],
  };
}
