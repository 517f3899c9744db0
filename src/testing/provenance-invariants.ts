import type { CompactionProvenance } from '../engines/provenance.js';
import type { Message } from '../model/message.js';

const GONE = new Set(['folded', 'superseded', 'collapsed', 'dropped']);

/**
 * What is wrong with a pass's provenance, if it has one: one entry per output and per input message; every
 * `from` index in range, the lists strictly increasing in output order (engines never reorder, and an input
 * message stands behind at most one output); every input message accounted for exactly once (kept, rewritten
 * or merged into the output whose `from` names it, else gone with `into` -1); a kept output is its input
 * message unchanged; only a new message comes from nowhere; every entry says why.
 */
export function provenanceFailures(
  input: readonly Message[],
  output: readonly Message[],
  provenance: CompactionProvenance | undefined,
): string[] {
  if (provenance === undefined) return [];
  const failures: string[] = [];
  if (provenance.output.length !== output.length)
    failures.push(`${provenance.output.length} output entries for ${output.length} output messages`);
  if (provenance.input.length !== input.length)
    failures.push(`${provenance.input.length} input entries for ${input.length} input messages`);
  const owner = new Map<number, { into: number; last: boolean }>();
  let previous = -1;
  provenance.output.forEach((entry, index) => {
    if (entry.reason.trim() === '') failures.push(`output #${index} gives no reason`);
    if (entry.from.length === 0 && entry.status !== 'new')
      failures.push(`output #${index} comes from no input message but is "${entry.status}", not "new"`);
    entry.from.forEach((at, position) => {
      if (!Number.isInteger(at) || at < 0 || at >= input.length)
        failures.push(`output #${index} comes from input #${at}, out of range`);
      else if (at <= previous)
        failures.push(`output #${index} comes from input #${at}, not after input #${previous}`);
      else owner.set(at, { into: index, last: position === entry.from.length - 1 });
      previous = Math.max(previous, at);
    });
    const source = input[entry.from[0] ?? -1];
    const message = output[index];
    if (
      entry.status === 'kept' &&
      (entry.from.length !== 1 || source === undefined || !sameValue(source, message))
    )
      failures.push(`output #${index} is "kept" but is not its one input message unchanged`);
  });
  provenance.input.forEach((entry, index) => {
    if (entry.reason.trim() === '') failures.push(`input #${index} gives no reason`);
    const held = owner.get(index);
    if (held === undefined) {
      if (entry.into !== -1 || !GONE.has(entry.status))
        failures.push(
          `input #${index} is in no output's "from" but is "${entry.status}" into #${entry.into}`,
        );
      return;
    }
    const expected = held.last ? ['kept', 'rewritten'] : ['merged'];
    if (entry.into !== held.into || !expected.includes(entry.status))
      failures.push(
        `input #${index} is "${entry.status}" into #${entry.into}, but output #${held.into} names it (${expected.join(' or ')})`,
      );
    const target = provenance.output[held.into]?.status;
    if (entry.status === 'kept' && target !== 'kept' && target !== 'new')
      failures.push(`input #${index} is "kept" but output #${held.into} is "${target}"`);
    if (entry.status === 'rewritten' && (target === 'kept' || target === 'new'))
      failures.push(`input #${index} is "rewritten" but output #${held.into} is "${target}"`);
  });
  return failures;
}

function sameValue(left: Message, right: Message | undefined): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}
