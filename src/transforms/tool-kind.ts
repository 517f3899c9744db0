import type { JsonObject } from '../model/json.js';
import type { ToolCallPart } from '../model/part.js';
import { parseToolArguments, stringArgument } from './tool-arguments.js';

/**
 * What a tool does, as far as a digest of its output is concerned. Agents name the same tool differently
 * (`bash`, `Bash`, `terminal`, `execute_command`…), so the kind comes from the name and the argument shape.
 */
export type ToolKind =
  | 'shell'
  | 'read'
  | 'search'
  | 'glob'
  | 'web-search'
  | 'fetch'
  | 'edit'
  | 'write'
  | 'todo'
  | 'task'
  | 'unknown';

const NAMES: Readonly<Record<string, ToolKind>> = {
  ...table(
    'shell',
    'bash terminal shell sh zsh powershell cmd exec execcommand executebash executecommand ' +
      'executeshell runcommand runshellcommand runterminalcmd runterminalcommand runbash ' +
      'localshell shellexec command run executecode runipython ipython python runpython ' +
      'codeinterpreter bashoutput',
  ),
  ...table(
    'read',
    'read readfile readfiles readmanyfiles view viewfile open openfile cat fileread ' +
      'getfilecontents notebookread',
  ),
  ...table(
    'search',
    'grep rg ripgrep searchfiles searchfile searchdir grepsearch findinfiles codebasesearch ' +
      'searchcode filesearch search',
  ),
  ...table('glob', 'glob ls listfiles listdir listdirectory findfile findfiles tree'),
  ...table(
    'web-search',
    'websearch searchweb googlesearch bingsearch bravesearch tavilysearch internetsearch ' +
      'websearchpreview duckduckgosearch searchinternet',
  ),
  ...table(
    'fetch',
    'fetch webfetch fetchurl readurl webextract urlfetch httpget browse scrape extract crawl ' + 'openurl',
  ),
  ...table(
    'edit',
    'edit multiedit applypatch patch strreplace replaceinfile editfile searchreplace ' +
      'notebookedit editnotebook insert replace',
  ),
  ...table('write', 'write writefile createfile create savefile writetofile newfile'),
  ...table('todo', 'todo todowrite todoread taskcreate taskupdate tasklist taskget'),
  ...table(
    'task',
    'task agent delegatetask dispatchagent spawnagent subagent newtask runagent callagent ' + 'launchagent',
  ),
};

const EDITOR_NAMES = new Set([
  'strreplaceeditor',
  'strreplacebasededittool',
  'texteditor',
  'editor',
  'fileeditor',
]);
const PATH_KEYS = ['path', 'file_path', 'filepath', 'file', 'filename', 'target_file', 'notebook_path'];

function table(kind: ToolKind, names: string): Record<string, ToolKind> {
  return Object.fromEntries(names.split(' ').map((name) => [name, kind]));
}

/**
 * The comparable form of a tool name: the last segment of namespaced names (`mcp__github__search_code`,
 * `functions.bash`), lower case, letters and digits only.
 */
export function normalizeToolName(name: string): string {
  const segments = name.split(/__|[./:]/).filter((segment) => segment !== '');
  return (segments[segments.length - 1] ?? name).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The kind of a tool call, from its name and the shape of its arguments. */
export function toolKind(call: Pick<ToolCallPart, 'name' | 'arguments'>): ToolKind {
  return toolKindOf(call.name, parseToolArguments(call.arguments));
}

/** {@link toolKind} for already parsed arguments. */
export function toolKindOf(name: string, args: JsonObject | undefined): ToolKind {
  const normalized = normalizeToolName(name);
  if (EDITOR_NAMES.has(normalized)) return editorKind(args);
  const byShape = shapeKind(normalized, args);
  // A name alone can mislead (`search` with a URL, `run` with a file): specific argument shapes win.
  if (byShape === 'edit' || byShape === 'write') return byShape;
  const named = NAMES[normalized];
  if (named !== undefined) return named === 'search' && hasUrl(args) ? 'fetch' : named;
  if (normalized.startsWith('browser')) return 'fetch';
  return byShape;
}

/** Editor tools (`str_replace_editor`, Anthropic's text editor) do different things by `command`. */
function editorKind(args: JsonObject | undefined): ToolKind {
  switch (stringArgument(args, 'command')) {
    case 'view':
      return 'read';
    case 'create':
      return 'write';
    default:
      return 'edit';
  }
}

function shapeKind(name: string, args: JsonObject | undefined): ToolKind {
  if (args === undefined) return name.includes('todo') ? 'todo' : 'unknown';
  if (
    (has(args, 'old_string') && has(args, 'new_string')) ||
    (has(args, 'old_str') && has(args, 'new_str')) ||
    isEditList(args)
  ) {
    return 'edit';
  }
  const path = PATH_KEYS.some((key) => typeof args[key] === 'string');
  if (
    path &&
    (has(args, 'content') || has(args, 'contents') || has(args, 'file_text')) &&
    !has(args, 'old_string')
  )
    return 'write';
  if (has(args, 'patch') || has(args, 'diff')) return 'edit';
  if ((has(args, 'command') || has(args, 'cmd')) && /bash|shell|term|exec|command|cmd|run|console/.test(name))
    return 'shell';
  if (path && /read|view|open|cat|show/.test(name)) return 'read';
  if ((has(args, 'pattern') || has(args, 'regex')) && /grep|search|find/.test(name)) return 'search';
  if (has(args, 'query') && /web|internet|google|bing|brave|tavily|duckduckgo|serp/.test(name))
    return 'web-search';
  if (hasUrl(args) && /fetch|brows|scrape|extract|url|http|navigate|crawl|visit/.test(name)) return 'fetch';
  if (name.includes('todo')) return 'todo';
  return 'unknown';
}

/** True when `key` of `args` holds a string. */
function has(args: JsonObject, key: string): boolean {
  return typeof args[key] === 'string';
}

function isEditList(args: JsonObject): boolean {
  const edits = args['edits'];
  return Array.isArray(edits) && edits.length > 0 && edits.every((edit) => typeof edit === 'object');
}

function hasUrl(args: JsonObject | undefined): boolean {
  if (args === undefined) return false;
  return typeof args['url'] === 'string' || Array.isArray(args['urls']);
}
