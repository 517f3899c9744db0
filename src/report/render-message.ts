import type { ClassifiedMessage, MessageStatus } from './classify-messages.js';
import { escapeHtml, formatNumber } from './escape-html.js';
import { cappedText, displayText, previewOf } from './message-text.js';

/** The word on each status badge and what it means, for the legend. */
export const STATUS_LEGEND: readonly (readonly [MessageStatus, string])[] = [
  ['kept', 'sent as it was'],
  ['pruned', 'tool output digested or deduplicated, arguments shrunk, images stripped'],
  ['folded', 'summarized into the checkpoint'],
  ['collapsed', 'tool call and result reduced to a one-line record'],
  ['truncated', 'long output cut to its first and last lines'],
  ['merged', 'assistant messages folded together'],
  ['dropped', 'removed or replaced by a marker'],
  ['new', 'the checkpoint'],
  ['changed', 'rewritten in a way the report cannot name'],
];

/** Roles in legend order. */
export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/**
 * One message card: index, role, status badge and token count, a bar whose width is the message's share of
 * the largest message of the transcript, the reason for the badge, and a one-line preview that opens onto
 * the full text. Every piece of transcript text is escaped.
 */
export function renderMessage(item: ClassifiedMessage, tokens: number, scale: number): string {
  const text = displayText(item.message);
  const width = scale <= 0 ? 0 : (100 * tokens) / scale;
  const preview = previewOf(text);
  const link =
    item.counterpart < 0 ? '' : ` → ${item.side === 'before' ? 'after' : 'before'} #${item.counterpart}`;
  return [
    `<article class="msg role-${escapeHtml(item.message.role)} status-${item.status}" data-side="${item.side}" data-index="${item.index}" data-tokens="${tokens}" data-status="${item.status}">`,
    `<header><span class="side">${item.side}</span><span class="idx">#${item.index}</span><span class="role">${escapeHtml(item.message.role)}</span>`,
    `<span class="badge badge-${item.status}">${item.status}</span>`,
    `<span class="tok">${formatNumber(tokens)} tok</span></header>`,
    `<div class="bar-track"><div class="bar" style="width:${width.toFixed(2)}%"></div></div>`,
    `<p class="why">${escapeHtml(item.reason)}${link}</p>`,
    `<details><summary><span class="preview-text">${preview === '' ? '<em>(empty)</em>' : escapeHtml(preview)}</span></summary>`,
    `<pre class="full">${escapeHtml(cappedText(text))}</pre></details>`,
    '</article>',
  ].join('');
}

/** The legend: role colours and status badges. */
export function renderLegend(): string {
  const roles = ROLES.map(
    (role) =>
      `<span class="role-${role}"><span class="swatch" style="background:var(--role)"></span>${role}</span>`,
  ).join('');
  const statuses = STATUS_LEGEND.map(
    ([status, meaning]) =>
      `<span><span class="badge badge-${status}">${status}</span> <span class="muted">${escapeHtml(meaning)}</span></span>`,
  ).join('');
  return `<div class="legend" aria-label="legend"><strong>Roles</strong>${roles}</div>\n<div class="legend"><strong>Status</strong>${statuses}</div>`;
}
