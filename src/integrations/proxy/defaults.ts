/** The defaults of `ProxyOptions` (apart from the options module, so the command line can show them cheaply). */
export const PROXY_DEFAULTS = {
  port: 8787,
  host: '127.0.0.1',
  maxBodyBytes: 32 * 1024 * 1024,
  maxConversations: 1000,
  engine: 'compressor',
} as const;
