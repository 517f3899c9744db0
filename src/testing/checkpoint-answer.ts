import { CHECKPOINT_SECTIONS, type SectionKey } from '../summarizer/prompts/checkpoint-template.js';

/**
 * A checkpoint body in condense's template, as a well-behaved model would answer: every section, in order,
 * with the given content and `- none` elsewhere. Scripted loopback replies and mock summarizers use it, since
 * an answer without the template's sections is refused as malformed.
 */
export function checkpointAnswer(content: Partial<Record<SectionKey, string>> = {}): string {
  return CHECKPOINT_SECTIONS.map(
    (section) => `## ${section.title}\n${content[section.key]?.trim() || '- none'}`,
  ).join('\n\n');
}
