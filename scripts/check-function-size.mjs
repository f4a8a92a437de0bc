// Fails when a function of packages/app/src or packages/core/src runs past 80 lines (issue 43,
// "thin screens"): a long function is a component, hook or use case waiting to be split along its
// concerns, not squeezed. Every function-like node counts: function declarations, methods,
// constructors, accessors, arrow functions and function expressions (React components and the
// callbacks inside them too); its length is its line span, first line to last. Test code is
// exempt: `*.test.ts(x)` (so `*.web.test.ts(x)` too) and core's `test-support/`, whose harnesses
// only tests import. Declaration files (`*.d.ts`) hold no bodies.
// The few functions that earned their length are listed in scripts/function-size-exceptions.json,
// each with the most lines it may have and why; the check fails when one grows past its lines,
// and when an entry is stale (the function is gone or back under the cap), so the list only
// shrinks. A function is named by where it sits: `name` for a declaration or a variable it is
// assigned to, `Class.method`, `object.method` for an object literal's member, `Outer>inner` for
// one nested in another, and `Outer>callee(…)` for a callback passed to a call (`#2`, `#3` when
// the same name recurs in one parent), so a name survives edits elsewhere in the file.
// `--list` prints every function over the cap with its lines, listed or not.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_LINES = 80;
const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['packages/app/src', 'packages/core/src'];
const exceptionsPath = join(root, 'scripts/function-size-exceptions.json');

const isSource = (name) =>
  /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) && !/\.test\.tsx?$/.test(name);

function sourceFiles(folder) {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        const rel = relative(root, path).split('\\').join('/');
        return rel === 'packages/core/src/test-support' ? [] : sourceFiles(path);
      }
      return isSource(name) ? [path] : [];
    });
}

/** The text a property or binding name reads as, or null when it is computed. */
function nameText(name) {
  if (name === undefined) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return null;
}

/** The short name of what is called: `useEffect`, `map` for `items.map`, `new Promise`. */
function calleeText(call) {
  const callee = call.expression;
  const prefix = ts.isNewExpression(call) ? 'new ' : '';
  if (ts.isIdentifier(callee)) return prefix + callee.text;
  if (ts.isPropertyAccessExpression(callee)) return prefix + callee.name.text;
  return prefix + 'call';
}

/**
 * A function's own name, or its place: the variable, property or class member it is bound to,
 * or the call it is passed to. `parentName` is the enclosing object literal's or class's name.
 */
function ownName(node) {
  if (ts.isFunctionDeclaration(node)) {
    return node.name?.text ?? 'default';
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    const kind = ts.isGetAccessor(node) ? 'get ' : ts.isSetAccessor(node) ? 'set ' : '';
    return kind + (nameText(node.name) ?? '[computed]');
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  // Arrow functions and anonymous function expressions: look through wrappers such as
  // `memo(...)`, `forwardRef(...)`, `(…)` and `as` to what they are bound to.
  let child = node;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isSatisfiesExpression(parent)
  ) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === child) {
    return nameText(parent.name) ?? 'destructured';
  }
  if (ts.isPropertyAssignment(parent) && parent.initializer === child) {
    return nameText(parent.name) ?? '[computed]';
  }
  if (ts.isPropertyDeclaration(parent) && parent.initializer === child) {
    return nameText(parent.name) ?? '[computed]';
  }
  if (ts.isExportAssignment(parent)) return 'default';
  if (ts.isBinaryExpression(parent) && parent.right === child) {
    const left = parent.left;
    if (ts.isIdentifier(left)) return left.text;
    if (ts.isPropertyAccessExpression(left)) return left.name.text;
  }
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== child) {
    const call = parent;
    // A component wrapped in memo/forwardRef takes the name of what the call is bound to.
    const bound = call.parent;
    if (ts.isVariableDeclaration(bound) && bound.initializer === call) {
      return nameText(bound.name) ?? `${calleeText(call)}(…)`;
    }
    return `${calleeText(call)}(…)`;
  }
  if (ts.isJsxExpression(parent)) {
    const attribute = parent.parent;
    if (ts.isJsxAttribute(attribute)) return `${attribute.name.getText()}={…}`;
    return 'jsx{…}';
  }
  return 'anonymous';
}

/** Names of the object literals and classes between a function and its enclosing function. */
function containerPrefix(node) {
  const parts = [];
  let current = node.parent;
  while (current && !isFunctionLike(current)) {
    if (ts.isClassDeclaration(current) || ts.isClassExpression(current)) {
      parts.unshift(current.name?.text ?? 'class');
    } else if (ts.isObjectLiteralExpression(current)) {
      const parent = current.parent;
      if (ts.isVariableDeclaration(parent)) parts.unshift(nameText(parent.name) ?? '{}');
      else if (ts.isPropertyAssignment(parent)) parts.unshift(nameText(parent.name) ?? '{}');
    }
    current = current.parent;
  }
  return parts.length > 0 ? `${parts.join('.')}.` : '';
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  );
}

/** Every function of a file with the name it is reported by and its line span. */
function measure(path) {
  const text = readFileSync(path, 'utf8');
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node, outer, seen) => {
    if (isFunctionLike(node) && node.body !== undefined) {
      const base = `${outer === null ? '' : `${outer}>`}${containerPrefix(node)}${ownName(node)}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const name = count === 1 ? base : `${base}#${count}`;
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      found.push({ name, lines: end - start + 1, line: start + 1 });
      const inner = new Map();
      ts.forEachChild(node, (child) => visit(child, name, inner));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, outer, seen));
  };
  visit(source, null, new Map());
  return found;
}

const exceptions = JSON.parse(readFileSync(exceptionsPath, 'utf8'));
const listed = new Map(exceptions.map((entry) => [`${entry.file}\u0000${entry.function}`, entry]));
const problems = [];
const over = [];
const measured = new Map();

for (const folder of roots) {
  for (const path of sourceFiles(join(root, folder))) {
    const file = relative(root, path).split('\\').join('/');
    for (const fn of measure(path)) {
      const key = `${file}\u0000${fn.name}`;
      measured.set(key, fn);
      if (fn.lines <= MAX_LINES) continue;
      over.push(`${file}:${fn.line} ${fn.name}: ${fn.lines} lines`);
      const entry = listed.get(key);
      if (entry === undefined) {
        problems.push(
          `${file}:${fn.line} ${fn.name}: ${fn.lines} lines, over ${MAX_LINES}; split it along its concerns (or, if it has earned its length, list it in scripts/function-size-exceptions.json with a reason)`,
        );
      } else if (fn.lines > entry.lines) {
        problems.push(
          `${file}:${fn.line} ${fn.name}: ${fn.lines} lines, past the ${entry.lines} its exception allows; split it rather than raise the number`,
        );
      }
    }
  }
}

for (const entry of exceptions) {
  if (typeof entry.reason !== 'string' || entry.reason.trim() === '') {
    problems.push(`function-size-exceptions.json: ${entry.file} ${entry.function} gives no reason`);
  }
  const fn = measured.get(`${entry.file}\u0000${entry.function}`);
  if (fn === undefined) {
    problems.push(
      `function-size-exceptions.json: ${entry.file} ${entry.function} no longer exists; remove its entry`,
    );
  } else if (fn.lines <= MAX_LINES) {
    problems.push(
      `function-size-exceptions.json: ${entry.file} ${entry.function} is ${fn.lines} lines now, within ${MAX_LINES}; remove its entry`,
    );
  }
}

if (process.argv.includes('--list')) console.log(over.join('\n'));
if (problems.length > 0) {
  console.error(`function size: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `function size: no function of app or core over ${MAX_LINES} lines but the ${exceptions.length} listed exception(s)`,
);
