import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { SPEC_TEXTS, UNTRANSLATED } from './text-allowlist';

/**
 * Issue 31 §6: every text a component shows comes from the i18n files (tr and en), except the
 * spec's own texts, which the spec fixes word for word and which may stay in the component
 * (SPEC_TEXTS, per file). UNTRANSLATED lists texts still waiting to move: it may only shrink.
 * Scanned: JSX text, string literals shown as JSX children (ternaries and `&&` included) and
 * string attributes that people read (placeholder, aria-label, title, alt, and text props).
 */
const SRC = join(__dirname, '..', '..');
/** Attributes that never hold a text for people. */
const NOT_TEXT = new Set(['className', 'style', 'to', 'href', 'type', 'role', 'id', 'key', 'name', 'src', 'kind', 'size', 'autoComplete', 'inputMode', 'accept', 'method', 'rel', 'target', 'lang', 'htmlFor', 'variant', 'status', 'direction', 'tab', 'mode', 'loading', 'decoding', 'pattern', 'enterKeyHint', 'autoCapitalize', 'dir', 'width', 'height', 'icon', 'path', 'testId', 'value', 'defaultValue', 'form', 'sizes', 'media', 'crossOrigin', 'fill', 'stroke', 'i18nKey']);
const TEXT_ARIA = new Set(['aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext']);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

const isText = (s: string) => /\p{L}/u.test(s) && !/^[a-z0-9_.:/-]+$/.test(s);

/** The hard-coded texts of one component's source, whitespace collapsed. */
function textsIn(name: string, code: string): string[] {
  const source = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const literals = (e: ts.Expression, into: string[]): void => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) into.push(e.text);
    else if (ts.isConditionalExpression(e)) [e.whenTrue, e.whenFalse].forEach((x) => literals(x, into));
    else if (ts.isParenthesizedExpression(e)) literals(e.expression, into);
    else if (ts.isBinaryExpression(e) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)) {
      literals(e.right, into);
    }
  };
  const visit = (node: ts.Node): void => {
    const texts: string[] = [];
    if (ts.isJsxText(node)) texts.push(node.text);
    else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText();
      const readable = name.startsWith('aria-') ? TEXT_ARIA.has(name) : !name.startsWith('data-') && !NOT_TEXT.has(name);
      if (readable && ts.isStringLiteral(node.initializer)) texts.push(node.initializer.text);
      else if (readable && ts.isJsxExpression(node.initializer) && node.initializer.expression) literals(node.initializer.expression, texts);
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      literals(node.expression, texts);
    }
    for (const t of texts) {
      const text = t.replace(/\s+/g, ' ').trim();
      if (isText(text)) found.push(text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('texts come from the i18n files (issue 31 §6)', () => {
  const files = tsxFiles(SRC).map((path) => ({ file: relative(SRC, path), texts: textsIn(path, readFileSync(path, 'utf8')) }));

  it('finds no hard-coded text in a component beyond the spec\'s own and the listed ones still to move', () => {
    const stray = files.flatMap(({ file, texts }) =>
      texts.filter((t) => !SPEC_TEXTS[file]?.includes(t) && !UNTRANSLATED[file]?.includes(t)).map((t) => `${file}: ${JSON.stringify(t)}`),
    );
    expect(stray).toEqual([]);
  });

  it('keeps the lists exact: an entry no component shows any more is taken out', () => {
    const shown = new Map(files.map(({ file, texts }) => [file, new Set(texts)]));
    const stale = [SPEC_TEXTS, UNTRANSLATED].flatMap((list) =>
      Object.entries(list).flatMap(([file, texts]) => texts.filter((t) => !shown.get(file)?.has(t)).map((t) => `${file}: ${JSON.stringify(t)}`)),
    );
    expect(stale).toEqual([]);
  });

  it('is live: hard-coded texts in a component are found, translated ones and non-texts are not', () => {
    const code = `export const P = () => (
      <div className="user-picker" data-testid="picker">
        <input placeholder="Search users..." aria-hidden="true" />
        <p>{busy ? 'Loading users...' : t('messages.noUsers')}</p>
        <p>No users found</p>
        <button aria-label={'Remove Ayse'} type="button">{t('common.save')}</button>
      </div>
    );`;
    expect(textsIn('probe.tsx', code)).toEqual(['Search users...', 'Loading users...', 'No users found', 'Remove Ayse']);
  });
});
