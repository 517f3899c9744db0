import type { FormatName } from '../../model/format.js';
import type { TranscriptDocument } from '../document.js';
import type { WireProblem } from '../provider-rules/index.js';
import { encodeDocument, getCodec, layoutFor } from '../registry.js';
import { type ConvertOptions, convertTranscript } from './convert-transcript.js';
import { type Loss, mergeLosses } from './losses.js';

/** A converted file: its text, the wire value of each transcript, and what the conversion reported. */
export interface DocumentConversion {
  readonly text: string;
  /** The wire value of each converted transcript, in order. */
  readonly wires: readonly unknown[];
  /** Transcripts converted. */
  readonly converted: number;
  /** Transcripts left out because they hold no message (a request needs at least one). */
  readonly empty: number;
  /** Unreadable lines of the input, left out. */
  readonly unreadable: number;
  /** Every loss, merged over the transcripts. */
  readonly losses: readonly Loss[];
  /** Provider-rule problems per converted transcript (index among the converted ones). */
  readonly problems: readonly { readonly index: number; readonly problems: readonly WireProblem[] }[];
}

/**
 * Converts every transcript of a document to `to`: canonical shape per transcript (JSON for one, JSONL for
 * several, a session file for `claude-code`), or with `keepDialect` and the same format the document written back
 * in its own dialect (the whole file as it was read). Otherwise transcripts without messages and unreadable lines
 * are left out and counted.
 */
export function convertDocument(
  document: TranscriptDocument,
  to: FormatName,
  options: ConvertOptions = {},
): DocumentConversion {
  const transcripts = document.entries.flatMap((entry) => (entry.kind === 'transcript' ? [entry] : []));
  const kept = transcripts.filter((entry) => entry.transcript.messages.length > 0);
  const conversions = kept.map((entry) => convertTranscript(entry.transcript, to, options));
  const problems = conversions.flatMap((conversion, index) =>
    conversion.problems.length === 0 ? [] : [{ index, problems: conversion.problems }],
  );
  const keep = options.keepDialect === true && document.format === to;
  const text = keep
    ? encodeDocument(document)
    : encodeWires(
        conversions.map((conversion) => conversion.wire),
        to,
      );
  return {
    text,
    wires: conversions.map((conversion) => conversion.wire),
    converted: kept.length,
    empty: transcripts.length - kept.length,
    unreadable: document.entries.length - transcripts.length,
    losses: mergeLosses(conversions.map((conversion) => conversion.losses)),
    problems,
  };
}

/** The text of converted wire values in the layout `to` uses for that many transcripts. */
function encodeWires(wires: readonly unknown[], to: FormatName): string {
  const layout = layoutFor(to, wires.length);
  if (layout === 'records') return lines(wires.flatMap((wire) => (Array.isArray(wire) ? wire : [wire])));
  if (layout === 'jsonl') return lines(wires);
  return wires.length === 0 ? '' : `${JSON.stringify(wires.length === 1 ? wires[0] : wires)}\n`;
}

function lines(values: readonly unknown[]): string {
  return values.length === 0 ? '' : `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;
}

/** True when a format holds one transcript per file (so several cannot be converted into one file). */
export function holdsOneTranscript(format: FormatName): boolean {
  return getCodec(format).fileLayout === 'records';
}
