import type { ProxyEvent } from '../../integrations/proxy/options.js';
import { startProxy } from '../../integrations/proxy/server.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import type { EngineFlags } from '../engine-flags.js';
import { engineFor, loadEngineSetup, loadRuleOptions, thresholdNote } from '../engine-setup.js';
import { listenError } from '../listen-error.js';
import { proxyEngineModuleUrl, proxyEngineRecipe } from '../proxy-engine.js';

/** The flags of the command. */
export interface ProxyFlags extends EngineFlags {
  readonly upstream: string;
  readonly port: number;
  readonly host: string;
  readonly maxBodyBytes?: number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** What `condense proxy` does once its arguments are parsed (loaded only when the command runs). */
export async function runProxy(context: CliContext, state: CommandState, flags: ProxyFlags): Promise<void> {
  const ruleOptions = await loadRuleOptions(context, flags);
  const setup = await loadEngineSetup(context, flags, ruleOptions);
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
}

/** One log line per request: method, path, status, time and what was done. Never bodies, headers or keys. */
function describeEvent(event: ProxyEvent): string {
  const error = event.error === undefined ? '' : ` (${event.error})`;
  return `${event.method} ${event.path} ${event.status} ${event.durationMs}ms ${event.detail}${error}`;
}
