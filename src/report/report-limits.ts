/** Sections rendered by default; a dataset of thousands of transcripts would make a page no browser opens. */
export const DEFAULT_MAX_TRANSCRIPTS = 20;
