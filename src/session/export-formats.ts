/** Dataset formats a session exports to. */
export const EXPORT_FORMATS = ['sharegpt', 'openai', 'anthropic'] as const;

/** A dataset format of `exportSession`. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
