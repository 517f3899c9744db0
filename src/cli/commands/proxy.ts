import { PROXY_DEFAULTS, type ProxyEvent } from '../../integrations/proxy/options.js';
import { startProxy } from '../../integrations/proxy/server.js';
import { EXIT } from '../context.js';
import {
  addEngineOptions,
  type EngineFlags,
  engineFor,
  loadRuleOptions,
  thresholdNote,
} from '../engine-flags.js';
import { listenError } from '../listen-error.js';
import { parsePositiveInteger } from '../options.js';
import type { CommandRegistrar } from '../program.js';
import { proxyEngineModuleUrl, proxyEngineRecipe } from '../proxy-engine.js';

interface ProxyFlags extends EngineFlags {
  readonly upstream: string;
  readonly port: number;
  readonly host: string;
  readonly maxBodyBytes?: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

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
  addEngineOptions(command, { files: false }).action(async (flags: ProxyFlags) => {
    const ruleOptions = await loadRuleOptions(context, flags);
    const setup = { ruleOptions, exactCounter: undefined };
    // Made once up front so a missing API key or a bad flag fails now, not on the first request.
    const note = thresholdNote(flags, engineFor(context, flags, setup));
    if (note !== undefined) context.stderr(`condense: note: ${note}\n`);
    const proxy = await startProxy({
      upstream: flags.upstream,
      port: flags.port,
      host: flags.host,
      engine: () => engineFor(context, flags, setup),
      // Compaction runs on worker threads, which make the same engines from this plain-data recipe.
      engineModule: {
        url: proxyEngineModuleUrl(),
        exportName: 'proxyEngineFactory',
        options: proxyEngineRecipe(context, flags, ruleOptions),
      },
      ...(flags.maxBodyBytes === undefined ? {} : { maxBodyBytes: flags.maxBodyBytes }),
      onEvent: (event) => context.stderr(`condense: ${describeEvent(event)}\n`),
    }).catch((error: unknown) => {
      throw listenError(error, flags.host, flags.port);
    });
    if (!LOOPBACK_HOSTS.has(flags.host)) {
      context.stderr(
        `condense: warning: listening on ${flags.host} makes the proxy (and the API keys sent through it) reachable from the network\n`,
      );
    }
    context.stderr(`condense: proxy listening on ${proxy.url} -> ${flags.upstream}\n`);
    await context.untilStopped?.();
    await proxy.close();
    context.stderr('condense: proxy stopped\n');
    state.exitCode = EXIT.ok;
  });
};

/** One log line per request: method, path, status, time and what was done. Never bodies, headers or keys. */
function describeEvent(event: ProxyEvent): string {
  const error = event.error === undefined ? '' : ` (${event.error})`;
  return `${event.method} ${event.path} ${event.status} ${event.durationMs}ms ${event.detail}${error}`;
}

function parsePort(value: string): number {
  if (value === '0') return 0;
  return parsePositiveInteger('--port')(value);
}
