// Finds every regular expression that `src/` compiles: regex literals, and `new RegExp(…)` / `RegExp(…)` calls.
// Shared by `npm run audit:regex` (which runs the ReDoS checker on each) and the test that keeps the audit file
// in step with the code without running the checker.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * How a regex is written: a literal; a `RegExp` call whose pattern and flags are built only from string
 * literals, templates and `const`s of the same file (so its pattern is known); or a call whose pattern comes
 * from data, which the checker cannot see.
 */
export type RegexKind = 'literal' | 'constructor' | 'dynamic';

/** One place in `src/` that compiles a regex. */
export interface RegexSite {
  /** Path from the repository root, with `/`. */
  readonly file: string;
  /** 1-based line, for messages only: audit entries are keyed without it, since lines move. */
  readonly line: number;
  readonly kind: RegexKind;
  /** The pattern; for a dynamic call, the pattern argument's code as written. */
  readonly source: string;
  /** The flags; for a dynamic call, the flags argument's code as written (or the flags, when those are known). */
  readonly flags: string;
}

/** Every `.ts` file under `dir`, sorted, as paths relative to `root`. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => relative(root, join(root, dir, path)).replaceAll('\\', '/'))
    .sort();
}

/** The regexes of every `.ts` file under `root/src`, in file order then position. */
export function findRegexSites(root: string): RegexSite[] {
  return sourceFiles(root).flatMap((file) => regexSitesOf(file, readFileSync(join(root, file), 'utf8')));
}

/** The regexes compiled by one file's code. */
export function regexSitesOf(file: string, text: string): RegexSite[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const constants = constantsOf(sf);
  const sites: RegexSite[] = [];
  const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const { source, flags } = splitLiteral(node.text);
      sites.push({ file, line: lineOf(node), kind: 'literal', source, flags });
    } else if (isRegExpCall(node)) {
      const [patternArg, flagsArg] = node.arguments ?? [];
      if (patternArg !== undefined) {
        const source = evaluate(patternArg, constants, sf);
        const flags = flagsArg === undefined ? '' : evaluate(flagsArg, constants, sf);
        if (source !== undefined && flags !== undefined)
          sites.push({ file, line: lineOf(node), kind: 'constructor', source, flags });
        else
          sites.push({
            file,
            line: lineOf(node),
            kind: 'dynamic',
            source: patternArg.getText(sf),
            flags: flags ?? flagsArg?.getText(sf) ?? '',
          });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return sites;
}

function splitLiteral(literal: string): { source: string; flags: string } {
  const end = literal.lastIndexOf('/');
  return { source: literal.slice(1, end), flags: literal.slice(end + 1) };
}

function isRegExpCall(node: ts.Node): node is ts.NewExpression | ts.CallExpression {
  return (
    (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'RegExp'
  );
}

/** A file's `const NAME = <initializer>` declarations, at any depth (names that repeat are left out). */
function constantsOf(sf: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression | undefined>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclarationList(node) &&
      (node.flags & ts.NodeFlags.Const) !== 0 &&
      node.declarations.length > 0
    ) {
      for (const declaration of node.declarations) {
        if (!ts.isIdentifier(declaration.name) || declaration.initializer === undefined) continue;
        const name = declaration.name.text;
        found.set(name, found.has(name) ? undefined : declaration.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const constants = new Map<string, ts.Expression>();
  for (const [name, initializer] of found) if (initializer !== undefined) constants.set(name, initializer);
  return constants;
}

/**
 * The string an expression always evaluates to, when it is built from string literals, templates (plain or
 * `String.raw`), `+`, the file's string `const`s and `.source` of its regex literals; otherwise undefined.
 */
function evaluate(
  node: ts.Expression,
  constants: ReadonlyMap<string, ts.Expression>,
  sf: ts.SourceFile,
  seen: ReadonlySet<string> = new Set(),
): string | undefined {
  const again = (inner: ts.Expression) => evaluate(inner, constants, sf, seen);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return again(node.expression);
  if (ts.isTemplateExpression(node)) return joinTemplate(node, (span) => span.text, again);
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText(sf) === 'String.raw') {
    const template = node.template;
    if (ts.isNoSubstitutionTemplateLiteral(template)) return rawText(template, sf);
    return joinTemplate(template, (span) => rawText(span, sf), again);
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = again(node.left);
    const right = again(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isIdentifier(node)) {
    const initializer = constants.get(node.text);
    if (initializer === undefined || seen.has(node.text)) return undefined;
    return evaluate(initializer, constants, sf, new Set([...seen, node.text]));
  }
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'source') {
    const target = ts.isIdentifier(node.expression) ? constants.get(node.expression.text) : node.expression;
    if (target !== undefined && ts.isRegularExpressionLiteral(target))
      return splitLiteral(target.text).source;
  }
  return undefined;
}

type TemplatePiece = ts.TemplateHead | ts.TemplateMiddle | ts.TemplateTail | ts.NoSubstitutionTemplateLiteral;

function joinTemplate(
  template: ts.TemplateExpression,
  textOf: (piece: TemplatePiece) => string,
  evaluated: (expression: ts.Expression) => string | undefined,
): string | undefined {
  let out = textOf(template.head);
  for (const span of template.templateSpans) {
    const value = evaluated(span.expression);
    if (value === undefined) return undefined;
    out += value + textOf(span.literal);
  }
  return out;
}

/** A template piece as written between its delimiters (`String.raw` keeps escapes as they are). */
function rawText(piece: TemplatePiece, sf: ts.SourceFile): string {
  const written = piece.getText(sf);
  const start = 1;
  const end = written.length - (ts.isTemplateHead(piece) || ts.isTemplateMiddle(piece) ? 2 : 1);
  return written.slice(start, end).replaceAll('\r\n', '\n');
}
