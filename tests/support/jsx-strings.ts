import { readFile } from "node:fs/promises";
import ts from "typescript";
import type { Plugin } from "vite";

/**
 * Literal text a TSX file puts on screen, found with the TypeScript parser (languages).
 *
 * The tests run inside workerd, which cannot load the TypeScript compiler, so this runs in Node as a Vite
 * plugin: importing `some-file.tsx?jsx-strings` yields the file's candidates as JSON, and
 * tests/unit/no-hardcoded-strings.test.ts decides which of them are hard-coded user-visible strings.
 */
export type JsxString = {
  /**
   * `text`: a JSX child (text or a string literal in `{…}`); `attribute`: a literal attribute value;
   * `meta`: a literal `title`/`content` in a route's exported `meta` function (the tab title).
   */
  kind: "text" | "attribute" | "meta";
  /** The attribute name, or the enclosing element's tag for text. */
  name: string;
  text: string;
  line: number;
  /** Text inside <Trans>, which i18next translates. */
  inTrans: boolean;
};

/** String literals an expression can evaluate to directly (`"a"`, `c ? "a" : "b"`, `x ?? "a"`, template text). */
function literals(node: ts.Expression): { text: string; node: ts.Node }[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [{ text: node.text, node }];
  if (ts.isTemplateExpression(node)) {
    return [node.head, ...node.templateSpans.map((span) => span.literal)]
      .filter((part) => part.text.length > 0)
      .map((part) => ({ text: part.text, node: part }));
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literals(node.expression);
  if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literals(node.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) {
      return [...literals(node.left), ...literals(node.right)];
    }
  }
  return [];
}

function tagName(element: ts.JsxElement | ts.JsxSelfClosingElement | ts.JsxFragment): string {
  if (ts.isJsxFragment(element)) return "";
  const tag = ts.isJsxElement(element) ? element.openingElement.tagName : element.tagName;
  return tag.getText();
}

export function extractJsxStrings(source: string, fileName = "file.tsx"): JsxString[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: JsxString[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const inTrans = (node: ts.Node) => {
    for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
      if ((ts.isJsxElement(at) || ts.isJsxSelfClosingElement(at)) && /(^|\.)Trans$/.test(tagName(at))) return true;
    }
    return false;
  };
  const inMeta = (node: ts.Node) => {
    for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
      if (ts.isVariableDeclaration(at) || ts.isFunctionDeclaration(at)) return at.name?.getText(file) === "meta";
    }
    return false;
  };
  const parentTag = (node: ts.Node) => {
    for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
      if (ts.isJsxElement(at) || ts.isJsxFragment(at)) return tagName(at);
    }
    return "";
  };

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.text.replace(/\s+/g, " ").trim();
      if (text) found.push({ kind: "text", name: parentTag(node), text, line: line(node), inTrans: inTrans(node) });
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const literal of literals(node.expression)) {
        found.push({ kind: "text", name: parentTag(node), text: literal.text, line: line(literal.node), inTrans: inTrans(node) });
      }
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(file);
      const values = ts.isStringLiteral(node.initializer)
        ? [{ text: node.initializer.text, node: node.initializer as ts.Node }]
        : ts.isJsxExpression(node.initializer) && node.initializer.expression
          ? literals(node.initializer.expression)
          : [];
      for (const value of values) found.push({ kind: "attribute", name, text: value.text, line: line(value.node), inTrans: inTrans(node) });
    } else if (ts.isPropertyAssignment(node) && /^(title|content)$/.test(node.name.getText(file)) && inMeta(node)) {
      for (const value of literals(node.initializer)) {
        found.push({ kind: "meta", name: node.name.getText(file), text: value.text, line: line(value.node), inTrans: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `import strings from "./x.tsx?jsx-strings"` (or through import.meta.glob with that query). */
export function jsxStringsPlugin(): Plugin {
  const QUERY = /\?jsx-strings$/;
  return {
    name: "velvet:jsx-strings",
    enforce: "pre",
    async load(id) {
      if (!QUERY.test(id)) return null;
      const file = id.replace(QUERY, "");
      this.addWatchFile(file);
      const strings = extractJsxStrings(await readFile(file, "utf8"), file);
      return { code: `export default ${JSON.stringify(strings)};`, map: null };
    },
  };
}
