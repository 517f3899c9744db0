/**
 * The page's only stylesheet, inlined (the Content-Security-Policy allows inline styles and nothing else).
 * Colours are custom properties so the dark scheme only swaps values; no fonts or images are fetched.
 */
export const REPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --panel: #ffffff; --text: #1d2330; --muted: #5f6b7a; --line: #dde2e8; --track: #edf0f4;
  --system: #8a63d2; --user: #2f6fde; --assistant: #1f9d6b; --tool: #d9822b;
  --kept: #e3f4ea; --kept-ink: #17603d; --pruned: #fff1d6; --pruned-ink: #7a4b00;
  --folded: #e8e4fb; --folded-ink: #4a3596; --collapsed: #fde7dc; --collapsed-ink: #8a3a12;
  --dropped: #fde2e2; --dropped-ink: #8f1f1f; --new: #dcecff; --new-ink: #18488f;
  --changed: #eceff3; --changed-ink: #3d4754;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171c; --panel: #1c2027; --text: #e4e8ee; --muted: #9aa5b4; --line: #2e343e; --track: #2a3039;
    --kept: #173a28; --kept-ink: #9fe0bb; --pruned: #3d3014; --pruned-ink: #f3cf85;
    --folded: #2c2548; --folded-ink: #c9bbff; --collapsed: #432619; --collapsed-ink: #f6b895;
    --dropped: #46201f; --dropped-ink: #f5a3a3; --new: #182f4f; --new-ink: #a9cbff;
    --changed: #2a3039; --changed-ink: #c9d1dc;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main { max-width: 1400px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; }
h2 { font-size: 1.25rem; margin: 0 0 12px; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 0 0 8px; }
.subtitle, .muted { color: var(--muted); }
.subtitle { margin: 0 0 20px; overflow-wrap: anywhere; }
nav.toc ol { margin: 0 0 20px; padding-left: 1.4em; columns: 2; }
.transcript { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 20px; margin: 0 0 28px; }
.verdict { margin: 0 0 16px; padding: 10px 14px; border-radius: 8px; font-weight: 600; }
.verdict-progress { background: var(--kept); color: var(--kept-ink); }
.verdict-noop { background: var(--changed); color: var(--changed-ink); }
.verdict-aborted { background: var(--dropped); color: var(--dropped-ink); }
.verdict .detail { display: block; font-weight: 400; }
.overview { display: grid; grid-template-columns: minmax(280px, 420px) 1fr; gap: 20px; margin-bottom: 20px; align-items: start; }
table.figures { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
table.figures th, table.figures td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
table.figures th { color: var(--muted); font-weight: 500; white-space: nowrap; }
table.figures td { font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.checkpoint { border: 2px solid var(--new-ink); border-radius: 8px; background: var(--new); padding: 12px 14px; min-width: 0; }
.checkpoint > summary { font-weight: 600; cursor: pointer; color: var(--new-ink); }
.checkpoint pre { max-height: 480px; }
.no-checkpoint { border: 1px dashed var(--line); border-radius: 8px; padding: 12px 14px; color: var(--muted); }
pre {
  margin: 8px 0 0; padding: 10px; background: var(--track); color: var(--text); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; overflow: auto; max-height: 360px;
  font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 0 0 14px; font-size: 0.85rem; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 4px; vertical-align: -1px; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; }
.col-head { position: sticky; top: 0; z-index: 1; background: var(--panel); padding: 6px 0; border-bottom: 2px solid var(--line); font-weight: 600; }
.cell { min-width: 0; }
.msg { border: 1px solid var(--line); border-left: 4px solid var(--role); border-radius: 6px; padding: 6px 10px; background: var(--panel); }
.msg header { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; font-size: 0.85rem; }
.msg .side { display: none; color: var(--muted); text-transform: uppercase; font-size: 0.7rem; letter-spacing: 0.05em; }
.msg .idx { color: var(--muted); font-variant-numeric: tabular-nums; }
.msg .role { font-weight: 600; color: var(--role); }
.msg .tok { margin-left: auto; color: var(--muted); font-variant-numeric: tabular-nums; }
.msg .why { margin: 2px 0 0; font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
.bar-track { height: 8px; background: var(--track); border-radius: 4px; margin: 5px 0 2px; overflow: hidden; }
.bar { height: 100%; min-width: 2px; background: var(--role); border-radius: 4px; }
.msg details > summary { cursor: pointer; font-size: 0.88rem; overflow-wrap: anywhere; list-style-position: inside; }
.msg details > summary .preview-text { color: var(--text); }
.role-system { --role: var(--system); } .role-user { --role: var(--user); }
.role-assistant { --role: var(--assistant); } .role-tool { --role: var(--tool); }
.badge { display: inline-block; padding: 0 7px; border-radius: 999px; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.02em; }
.badge-kept { background: var(--kept); color: var(--kept-ink); }
.badge-pruned { background: var(--pruned); color: var(--pruned-ink); }
.badge-folded { background: var(--folded); color: var(--folded-ink); }
.badge-collapsed, .badge-truncated, .badge-merged { background: var(--collapsed); color: var(--collapsed-ink); }
.badge-dropped { background: var(--dropped); color: var(--dropped-ink); }
.badge-new { background: var(--new); color: var(--new-ink); }
.badge-changed { background: var(--changed); color: var(--changed-ink); }
.status-folded, .status-dropped, .status-collapsed, .status-merged { opacity: 0.82; }
.status-new { border-color: var(--new-ink); }
.left-out { color: var(--muted); font-style: italic; }
@media (max-width: 900px) {
  .overview { grid-template-columns: 1fr; }
  nav.toc ol { columns: 1; }
}
@media (max-width: 640px) {
  main { padding: 12px 8px 40px; }
  .transcript { padding: 12px; }
  .columns { grid-template-columns: 1fr; }
  .col-head { display: none; }
  .cell:empty { display: none; }
  .cell.after .msg { margin-left: 16px; }
  .msg .side { display: inline; }
}
`;
