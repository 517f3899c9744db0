import { PROXY_DEFAULTS } from '../../integrations/proxy/defaults.js';
import type { ProxyFlags } from '../actions/proxy.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { addEngineOptions } from '../engine-flags.js';
import { parsePositiveInteger } from '../options.js';

/** `condense proxy --upstream URL`: an HTTP sidecar that compacts chat requests on their way to the provider. */
export const registerProxy: CommandRegistrar = (program, context, state) => {
  const command = program
    .command('proxy')
    .description(
      'run an HTTP sidecar: OpenAI /v1/chat/completions and /v1/responses and Anthropic /v1/messages requests are compacted on their way to --upstream, everything else passes through',
    )
    .requiredOption(
      '--upstream <url>',
      'provider base URL, e.g. https://api.openai.com/v1 or https://api.anthropic.com',
    )
    .option('--port <port>', 'port to listen on, 0 for any free one', parsePort, PROXY_DEFAULTS.port)
    .option(
      '--host <host>',
      'interface to listen on (anything but loopback exposes the proxy)',
      PROXY_DEFAULTS.host,
    )
    .option(
      '--max-body-bytes <bytes>',
      `largest request body accepted (default ${PROXY_DEFAULTS.maxBodyBytes})`,
      parsePositiveInteger('--max-body-bytes'),
    );
  addEngineOptions(command, { files: false }).action(async (flags: ProxyFlags) =>
    (await import('../actions/proxy.js')).runProxy(context, state, flags),
  );
};

function parsePort(value: string): number {
  if (value === '0') return 0;
  return parsePositiveInteger('--port')(value);
}
