import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { toolResultText } from '../../model/message-helpers.js';
import { formatCount, truncateStart } from '../../transforms/text-facts.js';
import type { EngineTool } from '../context-engine.js';
import type { CollapsedElement } from './collapsed-element.js';
import { refKey } from './references.js';

/** Name of the tool through which the agent fetches what the rules collapsed. */
export const RECALL_TOOL_NAME = 'condense_recall';

/** The recall tool as offered to the agent. */
export const RECALL_TOOL: EngineTool = {
  name: RECALL_TOOL_NAME,
  description:
    'Fetch the full original of content condensed earlier in this conversation. Lines such as ' +
    '"[tool: … · ref=m12#a1b2c3d4]" or "[truncated: … · ref=…]" carry a reference: pass it as `ref` to get the ' +
    'original call and output, message or system prompt back. Or pass `pattern` (plain text, case-insensitive) ' +
    'to search everything condensed so far.',
  parameters: {
    type: 'object',
    properties: {
      ref: { type: 'string', description: 'A reference such as m12#a1b2c3d4 (the ref= prefix is optional).' },
      pattern: { type: 'string', description: 'Text to search for in condensed content.' },
      offset: { type: 'integer', minimum: 0, description: 'Character offset into a long original (paging).' },
    },
    additionalProperties: false,
  },
};

const PAGE_CHARS = 20_000;
const MAX_HITS = 20;
const HIT_LINES = 3;

/** What the engine collapsed in this conversation, by reference key, oldest first. */
export interface RecallStore {
  add(elements: readonly CollapsedElement[]): void;
  clear(): void;
  readonly size: number;
  /** Answers one call of the recall tool. */
  answer(args: JsonObject): string;
}

/** An empty store. Elements are kept by reference to the original messages (nothing is copied). */
export function createRecallStore(): RecallStore {
  const elements = new Map<string, CollapsedElement>();
  const rendered = new Map<string, string>();
  const textOf = (key: string, element: CollapsedElement): string => {
    let text = rendered.get(key);
    if (text === undefined) {
      text = renderElement(element);
      rendered.set(key, text);
    }
    return text;
  };
  const find = (request: string): [string, CollapsedElement] | undefined => {
    const key = request.trim().replace(/^ref=/, '');
    const exact = elements.get(key);
    if (exact !== undefined) return [key, exact];
    const byLabel = [...elements].filter(([candidate]) => candidate.split('#')[0] === key);
    return byLabel.length === 1 ? byLabel[0] : undefined;
  };
  return {
    add(list) {
      for (const element of list)
        if (!elements.has(refKey(element.ref))) elements.set(refKey(element.ref), element);
    },
    clear() {
      elements.clear();
      rendered.clear();
    },
    get size() {
      return elements.size;
    },
    answer(args) {
      const ref = args['ref'];
      const pattern = args['pattern'];
      const offset =
        typeof args['offset'] === 'number' && args['offset'] > 0 ? Math.floor(args['offset']) : 0;
      if (typeof ref === 'string' && ref.trim() !== '') {
        const found = find(ref);
        if (found === undefined) {
          return `No condensed element has the reference "${ref}" in this conversation (${elements.size} known). Use pattern to search.`;
        }
        return page(textOf(found[0], found[1]), offset);
      }
      if (typeof pattern === 'string' && pattern.trim() !== '') {
        return search(
          pattern,
          [...elements].map(([key, element]) => [key, textOf(key, element)]),
        );
      }
      return 'Pass `ref` (a reference such as m12#a1b2c3d4) or `pattern` (text to search for).';
    },
  };
}

function page(text: string, offset: number): string {
  if (offset === 0 && text.length <= PAGE_CHARS) return text;
  const slice = text.slice(offset, offset + PAGE_CHARS);
  const rest = text.length - offset - slice.length;
  return rest > 0
    ? `${slice}\n[… ${formatCount(rest)} more chars: call again with offset=${offset + slice.length}]`
    : slice;
}

function search(pattern: string, texts: readonly (readonly [string, string])[]): string {
  const needle = pattern.toLowerCase();
  const hits: string[] = [];
  let matched = 0;
  for (const [key, text] of texts) {
    if (!text.toLowerCase().includes(needle)) continue;
    matched++;
    if (hits.length >= MAX_HITS) continue;
    const lines = text
      .split('\n')
      .filter((line) => line.toLowerCase().includes(needle))
      .slice(0, HIT_LINES)
      .map((line) => `  ${truncateStart(line.trim(), 200)}`);
    hits.push(`ref=${key}\n${lines.join('\n')}`);
  }
  if (matched === 0) return `Nothing condensed in this conversation contains "${pattern}".`;
  const more = matched > hits.length ? `\n[… ${matched - hits.length} more elements match]` : '';
  return `${matched} condensed element${matched === 1 ? '' : 's'} contain "${pattern}" (fetch one with ref):\n${hits.join('\n')}${more}`;
}

/** The full original of an element as text: the calls with their arguments and the complete outputs. */
export function renderElement(element: CollapsedElement): string {
  const header = `ref=${refKey(element.ref)} (${element.kind})`;
  switch (element.kind) {
    case 'pair':
    case 'output':
      return `${header}\n${renderResults(element.message, element.caller)}`;
    case 'system':
      return `${header}\nsystem message:\n${partsText(element.message)}`;
    case 'assistant':
      return `${header}\nassistant message:\n${partsText(element.message)}`;
  }
}

function renderResults(message: Message, caller: Message | undefined): string {
  const out: string[] = [];
  for (const part of message.parts) {
    if (part.type !== 'tool-result') continue;
    const call = caller?.parts.find((item) => item.type === 'tool-call' && item.id === part.callId);
    if (call?.type === 'tool-call') out.push(`call ${call.name} ${call.arguments}`);
    const images = part.content.filter((item) => item.type === 'image').length;
    out.push(
      `result${part.isError === true ? ' (error)' : ''}${images > 0 ? ` (+${images} image${images === 1 ? '' : 's'})` : ''}:`,
      toolResultText(part.content),
    );
  }
  return out.join('\n');
}

function partsText(message: Message): string {
  const out: string[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        out.push(part.text);
        break;
      case 'reasoning':
        if (part.text !== '') out.push(`(reasoning) ${part.text}`);
        break;
      case 'tool-call':
        out.push(`call ${part.name} ${part.arguments}`);
        break;
      case 'tool-result':
        out.push(`result: ${toolResultText(part.content)}`);
        break;
      case 'image':
        out.push('(image)');
        break;
      case 'opaque':
        out.push(`(${part.kind})`);
        break;
    }
  }
  return out.join('\n');
}
