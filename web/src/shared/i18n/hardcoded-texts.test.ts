import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { SAME_IN_EVERY_LANGUAGE } from './text-allowlist';

/**
 * Issue 43 §1: every text a component shows comes from the i18n files (en and tr), so English is wholly
 * English and Turkish wholly Turkish; only names that are the same in every language may stay
 * (SAME_IN_EVERY_LANGUAGE). Scanned: JSX text, string and template literals shown as JSX children
 * (ternaries and `&&` included), string attributes that people read (placeholder, aria-label, title, alt,
 * and text props), and texts handed to dialogs, error lines, server-error fallbacks and toasts.
 */
const SRC = join(__dirname, '..', '..');
/** Attributes that never hold a text for people. */
const NOT_TEXT = new Set(['className', 'style', 'to', 'href', 'type', 'role', 'id', 'key', 'name', 'src', 'kind', 'size', 'autoComplete', 'inputMode', 'accept', 'method', 'rel', 'target', 'lang', 'htmlFor', 'variant', 'status', 'direction', 'tab', 'mode', 'loading', 'decoding', 'pattern', 'enterKeyHint', 'autoCapitalize', 'dir', 'width', 'height', 'icon', 'path', 'testId', 'value', 'defaultValue', 'form', 'sizes', 'media', 'crossOrigin', 'fill', 'stroke', 'i18nKey']);
/** Calls whose (string) arguments people read. */
const SHOWN_BY = new Set(['confirm', 'alert', 'prompt', 'errorMessage', 'setError', 'setOk', 'setNotice', 'setMessage', 'useDocumentTitle']);
const TEXT_ARIA = new Set(['aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext']);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) && !path.includes(`${join('shared', 'i18n')}`) ? [path] : [];
  });
}

const isText = (s: string) => /\p{L}/u.test(s) && !/^[a-z0-9_.:/-]+$/.test(s);

/** The hard-coded texts of one component's source, whitespace collapsed. */
function textsIn(name: string, code: string): string[] {
  const source = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const literals = (e: ts.Expression, into: string[]): void => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) into.push(e.text);
    // `Join ${name}`: the words around the values
    else if (ts.isTemplateExpression(e)) into.push([e.head.text, ...e.templateSpans.map((span) => span.literal.text)].join('{}'));
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
    } else if (ts.isCallExpression(node)) {
      // texts handed to what shows them: a dialog, an error line, a fallback of a server error, a toast
      const callee = node.expression.getText().split('.').pop() ?? '';
      if (SHOWN_BY.has(callee)) node.arguments.slice(callee === 'errorMessage' ? 1 : 0).forEach((a) => literals(a, texts));
    } else if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent) && ts.isCallExpression(node.parent.parent) && node.parent.parent.expression.getText() === 'pushToast') {
      if (['title', 'message'].includes(node.name.getText())) literals(node.initializer, texts);
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

describe('texts come from the i18n files (issues 31 §6, 43 §1)', () => {
  const files = tsxFiles(SRC).map((path) => ({ file: relative(SRC, path), texts: textsIn(path, readFileSync(path, 'utf8')) }));

  it('finds no hard-coded text in a component, beyond names that are the same in every language', () => {
    const stray = files.flatMap(({ file, texts }) =>
      texts.filter((t) => !SAME_IN_EVERY_LANGUAGE[file]?.includes(t)).map((t) => `${file}: ${JSON.stringify(t)}`),
    );
    expect(stray).toEqual([]);
  });

  it('keeps the list exact: an entry no component shows any more is taken out', () => {
    const shown = new Map(files.map(({ file, texts }) => [file, new Set(texts)]));
    const stale = Object.entries(SAME_IN_EVERY_LANGUAGE).flatMap(([file, texts]) => texts.filter((t) => !shown.get(file)?.has(t)).map((t) => `${file}: ${JSON.stringify(t)}`));
    expect(stale).toEqual([]);
  });

  it('is live: hard-coded texts in a component are found, translated ones and non-texts are not', () => {
    const code = `export const P = () => {
      const go = () => { if (!window.confirm(\`Delete \${name}?\`)) return; dispatch(pushToast({ title: 'Hata', message: errorMessage(e, 'Failed to save'), kind: 'error' })); };
      return (
      <div className="user-picker" data-testid="picker">
        <input placeholder="Search users..." aria-hidden="true" />
        <p>{busy ? 'Loading users...' : t('messages.noUsers')}</p>
        <p>No users found</p>
        <h2>{\`Join \${PRODUCT_NAME}\`}</h2>
        <button aria-label={'Remove Ayse'} type="button">{t('common.save')}</button>
      </div>
    ); };`;
    expect(textsIn('probe.tsx', code)).toEqual(['Delete {}?', 'Hata', 'Failed to save', 'Search users...', 'Loading users...', 'No users found', 'Join {}', 'Remove Ayse']);
  });
});
