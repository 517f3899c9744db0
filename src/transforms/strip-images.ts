import type { Message } from '../model/message.js';
import { textPart } from '../model/message-helpers.js';
import type { ImagePart, Part, ToolResultContentPart } from '../model/part.js';
import { findLatestUserRequest } from './find-latest-user-request.js';
import { mapMessages, mapParts } from './rewrite.js';

/** Text put where an image was: a fixed string, or one made from the image. */
export type ImagePlaceholder = string | ((image: ImagePart) => string);

/** Options of {@link stripImages}. */
export interface StripImagesOptions {
  /** Only messages at indices below this lose their images: the protected tail starts here. */
  readonly before: number;
  /** @default {@link defaultImagePlaceholder} */
  readonly placeholder?: ImagePlaceholder;
  /**
   * Leave the images of the latest user request alone even when it is before `before`: they are what the
   * user is asking about.
   * @default true
   */
  readonly keepLatestUserRequest?: boolean;
  /**
   * Only strip images inside tool results (screenshots, rendered pages), never ones a user or assistant
   * message carries itself. Hermes' pruning pass does this; user attachments go with the historical strip.
   * @default false
   */
  readonly toolResultsOnly?: boolean;
}

/** Options of {@link stripHistoricalImages}. */
export interface StripHistoricalImagesOptions {
  /** @default {@link defaultImagePlaceholder} */
  readonly placeholder?: ImagePlaceholder;
}

/** Result of the image passes. */
export interface StripImagesResult {
  /** The input array itself when nothing was stripped. */
  readonly messages: readonly Message[];
  /** Images replaced by a placeholder. */
  readonly stripped: number;
}

/**
 * `[image removed to save context: <url>]` for a linked image (the URL is an artifact worth keeping), and
 * `[image removed to save context (<media type>)]` for inline data, whose bytes say nothing in text.
 */
export function defaultImagePlaceholder(image: ImagePart): string {
  const { source } = image;
  if (source.kind === 'url' && !source.url.startsWith('data:')) {
    return `[image removed to save context: ${source.url}]`;
  }
  return source.mediaType === undefined
    ? '[image removed to save context]'
    : `[image removed to save context (${source.mediaType})]`;
}

/**
 * Replaces the images of old messages (before `before`) by a text placeholder: images in user and assistant
 * messages and images inside tool results alike. Every image costs a fixed number of tokens whatever it
 * shows, so old screenshots are the cheapest large saving there is.
 */
export function stripImages(messages: readonly Message[], options: StripImagesOptions): StripImagesResult {
  const keep = (options.keepLatestUserRequest ?? true) ? findLatestUserRequest(messages) : -1;
  return replaceImages(
    messages,
    (index) => index < options.before && index !== keep,
    options.placeholder,
    options.toolResultsOnly ?? false,
  );
}

/**
 * Hermes' historical media strip: once the user attaches a new image, the images of every earlier message
 * (any role) are replaced by a placeholder, so old attachments stop being paid for on every request. Nothing
 * changes when no user message carries an image, or only the first message does.
 */
export function stripHistoricalImages(
  messages: readonly Message[],
  options: StripHistoricalImagesOptions = {},
): StripImagesResult {
  let anchor = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && message.parts.some((part) => part.type === 'image')) {
      anchor = index;
      break;
    }
  }
  if (anchor <= 0) return { messages, stripped: 0 };
  return replaceImages(messages, (index) => index < anchor, options.placeholder);
}

function replaceImages(
  messages: readonly Message[],
  eligible: (index: number) => boolean,
  placeholder: ImagePlaceholder = defaultImagePlaceholder,
  toolResultsOnly = false,
): StripImagesResult {
  const render = typeof placeholder === 'string' ? () => placeholder : placeholder;
  let stripped = 0;
  const out = mapMessages(messages, (message, index) => {
    if (!eligible(index)) return message;
    return mapParts(message, (part): Part => {
      if (part.type === 'image' && !toolResultsOnly) {
        stripped++;
        return textPart(render(part));
      }
      if (part.type !== 'tool-result' || !part.content.some((content) => content.type === 'image'))
        return part;
      const content = part.content.map((inner): ToolResultContentPart => {
        if (inner.type !== 'image') return inner;
        stripped++;
        return textPart(render(inner));
      });
      return { ...part, content };
    });
  });
  return { messages: out, stripped };
}
