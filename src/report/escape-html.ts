const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Lone surrogates and C0 controls other than tab and newline would make the page invalid or invisible.
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this replaces
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text made safe for HTML element content and quoted attribute values: the five markup characters become
 * entities and control characters and lone surrogates become U+FFFD, so transcript text can never open a
 * tag, close an attribute or break the document.
 */
export function escapeHtml(text: string): string {
  return text.replace(UNSAFE, '\ufffd').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A number for display: grouped thousands, at most one decimal. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}
