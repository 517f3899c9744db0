import { convertTranscript } from '../../src/codecs/convert/convert-transcript.js';
import type { Loss, LossKind } from '../../src/codecs/convert/losses.js';
import { getCodec } from '../../src/codecs/registry.js';
import type { FormatName } from '../../src/model/format.js';
import type { Transcript } from '../../src/model/transcript.js';
import { features, promptText, toolPairs } from './measures.js';

function reported(losses: readonly Loss[], kind: LossKind): number {
  return losses.filter((loss) => loss.kind === kind).reduce((sum, loss) => sum + loss.count, 0);
}

/**
 * Converts `source` to `to`, reads the output back with the target's codec, and lists every way the conversion
 * broke its promises (empty when it kept them): the provider's rules hold on the output; the person's prompts
 * read back the same, in the same order; every tool call keeps its result (text and error flag) in order; and
 * every feature that came back short is exactly what the loss report says was dropped.
 */
export function conversionFindings(source: Transcript, to: FormatName): string[] {
  const out: string[] = [];
  const codec = getCodec(to);
  const { wire, losses, problems } = convertTranscript(source, to);
  for (const problem of problems) out.push(`provider rule: ${problem.path} ${problem.message}`);
  const back = codec.decode(JSON.parse(JSON.stringify(wire))).value;
  const prompts = promptText(source);
  const readBack = promptText(back, reported(losses, 'turn-added') > 0);
  if (readBack !== prompts) {
    let at = 0;
    while (at < prompts.length && prompts[at] === readBack[at]) at++;
    const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
    out.push(`the person's prompts read back differently at ${at}: ${around(prompts)} ⇒ ${around(readBack)}`);
  }
  const before = toolPairs(source);
  const after = toolPairs(back);
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    const at = before.findIndex((pair, index) => pair !== after[index]);
    out.push(`tool pair ${at} changed: ${before[at]?.slice(0, 120)} ⇒ ${after[at]?.slice(0, 120)}`);
  }
  const was = features(source);
  const now = features(back);
  const caps = codec.capabilities;
  const expect = (what: string, value: number, wanted: number): void => {
    if (value !== wanted) out.push(`${what}: ${value}, expected ${wanted}`);
  };
  expect('reasoning read back', now.reasoning, was.reasoning);
  expect(
    'encrypted reasoning lost and reported',
    was.encrypted - now.encrypted,
    reported(losses, 'encrypted-reasoning'),
  );
  expect(
    'signatures lost and reported',
    was.signatures - now.signatures,
    reported(losses, 'reasoning-signature'),
  );
  expect('images lost and reported', was.images - now.images, reported(losses, 'image'));
  expect(
    'result images lost and reported',
    was.resultImages - now.resultImages,
    reported(losses, 'tool-result-image'),
  );
  expect('tool errors read back', now.errors, was.errors);
  expect('tool calls read back', now.calls, was.calls);
  expect('opaque parts lost and reported', was.opaque - now.opaque, reported(losses, 'opaque-part'));
  const systemLost = reported(losses, 'system-prompt') + reported(losses, 'system-prompt-moved');
  expect('system messages lost and reported', was.system - now.system, systemLost);
  if (!caps.toolErrors) expect('error markers reported', reported(losses, 'tool-error-as-text'), was.errors);
  return out;
}
