/**
 * For a test: the messages the server's code can put in an error answer, read from its source
 * (server/ and api/, tests left out). A message is the text given to an error class (`new
 * NotFoundError("…")`, with the class's status) or to a zod check (`.max(200, "…")`, `{ error: "…" }`,
 * `addIssue({ message })`, status 400). Constants, helper calls (`notOnOneLine("Name")`), the functions
 * a message is returned from, and a helper's parameters (from the helper's call sites) are followed; a
 * part of a template that cannot be followed becomes "…". A whole message that cannot be followed is
 * listed as unresolved, by file and expression, for the test to judge.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ANY = "…";

export type ScannedMessage = { status: number; text: string; at: string };
export type Unresolved = { at: string; expression: string };

/** An error class: its status, and which constructor argument is the message (with its default), or its fixed message. */
type ErrorClass = { status: number; argument?: number; fallback?: ts.Expression; fixed?: ts.Expression };

/** zod checks whose message is their first argument, and those whose message follows a limit or test. */
const ZOD_MESSAGE_FIRST = new Set(["int", "positive", "nonnegative", "negative", "email", "url", "nonempty"]);
const ZOD_MESSAGE_SECOND = new Set(["min", "max", "length", "regex", "refine", "gt", "gte", "lt", "lte"]);

type FunctionNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration;
/** A parameter's texts in one call; undefined when its argument could not be followed. */
type Env = Map<ts.ParameterDeclaration, string[] | undefined>;

class NotFollowed extends Error {}

function attempt<T>(follow: () => T): T | undefined {
  try {
    return follow();
  } catch (err) {
    if (err instanceof NotFollowed) return undefined;
    throw err;
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourceFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

const isFunction = (node: ts.Node | undefined): node is FunctionNode =>
  !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node));

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    ? unwrap(node.expression)
    : node;

export function scanServerMessages(root: string): { messages: ScannedMessage[]; unresolved: Unresolved[] } {
  const files = new Map<string, ts.SourceFile>();
  for (const file of [...sourceFiles(path.join(root, "server")), ...sourceFiles(path.join(root, "api"))])
    files.set(file, ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true));

  const where = (node: ts.Node) => {
    const source = node.getSourceFile();
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(root, source.fileName)}:${line + 1}`;
  };

  /** The declaration a name means at this node: a variable, a function, a parameter, or an import's target. */
  function declarationOf(name: string, at: ts.Node): ts.Node | undefined {
    for (let scope: ts.Node | undefined = at; scope; scope = scope.parent) {
      if (isFunction(scope)) {
        const parameter = scope.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name);
        if (parameter) return parameter;
      }
      if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)) {
        for (const statement of scope.statements) {
          if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
          if (ts.isVariableStatement(statement))
            for (const declaration of statement.declarationList.declarations)
              if (ts.isIdentifier(declaration.name) && declaration.name.text === name) return declaration;
          if (ts.isImportDeclaration(statement) && ts.isSourceFile(scope)) {
            const imported = importTarget(statement, name);
            if (imported) return imported;
          }
        }
      }
    }
    return undefined;
  }

  function importTarget(statement: ts.ImportDeclaration, name: string): ts.Node | undefined {
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || !ts.isStringLiteral(statement.moduleSpecifier)) return undefined;
    const element = bindings.elements.find((e) => e.name.text === name);
    if (!element) return undefined;
    const from = path.resolve(path.dirname(statement.getSourceFile().fileName), statement.moduleSpecifier.text);
    const target = files.get(`${from}.ts`) ?? files.get(path.join(from, "index.ts"));
    return target && declarationOf((element.propertyName ?? element.name).text, target);
  }

  const calls: ts.CallExpression[] = [];
  for (const source of files.values())
    (function collect(node: ts.Node) {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) calls.push(node);
      ts.forEachChild(node, collect);
    })(source);

  /** The values a function's parameter takes: the argument at each call site, or its default. */
  function parameterValues(parameter: ts.ParameterDeclaration, depth: number): string[] {
    const values = callSites(parameter).flatMap(({ argument }) => evaluate(argument, new Map(), depth + 1));
    if (values.length === 0) throw new NotFollowed();
    return values;
  }

  /** The functions an expression can be: a declared one, an object's method, or a parameter's arguments. */
  function functionsOf(node: ts.Expression, depth: number): FunctionNode[] {
    node = unwrap(node);
    if (isFunction(node)) return [node];
    if (ts.isIdentifier(node)) {
      const declaration = declarationOf(node.text, node);
      if (ts.isFunctionDeclaration(declaration!)) return [declaration];
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return functionsOf(declaration.initializer, depth + 1);
      if (declaration && ts.isParameter(declaration))
        return callSites(declaration).flatMap(({ argument }) => functionsOf(argument, depth + 1));
    }
    if (ts.isPropertyAccessExpression(node))
      return objectsOf(node.expression, new Map(), depth + 1).flatMap((object) =>
        object.properties.flatMap((property) => {
          if (property.name?.getText() !== node.name.text) return [];
          if (ts.isMethodDeclaration(property)) return [property as unknown as FunctionNode];
          if (ts.isPropertyAssignment(property)) return functionsOf(property.initializer, depth + 1);
          return ts.isShorthandPropertyAssignment(property) ? functionsOf(property.name, depth + 1) : [];
        }),
      );
    throw new NotFollowed();
  }

  /** The object literals an expression can be: a constant's, a function's answers, a parameter's arguments. */
  function objectsOf(expression: ts.Expression, env: Env, depth: number): ts.ObjectLiteralExpression[] {
    if (depth > 30) throw new NotFollowed();
    const node = unwrap(expression);
    if (ts.isObjectLiteralExpression(node)) return [node];
    if (ts.isIdentifier(node)) {
      const declaration = declarationOf(node.text, node);
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return objectsOf(declaration.initializer, env, depth + 1);
      if (declaration && ts.isParameter(declaration))
        return callSites(declaration).flatMap(({ argument }) => objectsOf(argument, new Map(), depth + 1));
    }
    if (ts.isCallExpression(node) || ts.isAwaitExpression(node)) {
      const call = unwrap(ts.isAwaitExpression(node) ? node.expression : node);
      if (!ts.isCallExpression(call)) throw new NotFollowed();
      return functionsOf(call.expression, depth + 1).flatMap((fn) => {
        const answers: ts.ObjectLiteralExpression[] = [];
        const add = (answer: ts.Expression) => answers.push(...objectsOf(answer, env, depth + 1));
        if (fn.body && !ts.isBlock(fn.body)) add(fn.body);
        else if (fn.body)
          (function visit(inner: ts.Node) {
            if (ts.isReturnStatement(inner) && inner.expression) add(inner.expression);
            else if (!isFunction(inner)) ts.forEachChild(inner, visit);
          })(fn.body);
        return answers;
      });
    }
    throw new NotFollowed();
  }

  /** Each call of a parameter's function, with the argument given for the parameter. */
  function callSites(parameter: ts.ParameterDeclaration): { argument: ts.Expression }[] {
    const fn = parameter.parent;
    const index = fn.parameters.indexOf(parameter);
    const owner = ts.isFunctionDeclaration(fn) ? fn : ts.isVariableDeclaration(fn.parent) ? fn.parent : undefined;
    const name = owner?.name && ts.isIdentifier(owner.name) ? owner.name.text : undefined;
    return calls
      .filter((call) => (call.expression as ts.Identifier).text === name && declarationOf(name, call) === owner)
      .flatMap((call) => {
        const argument = call.arguments[index] ?? parameter.initializer;
        return argument ? [{ argument }] : [];
      });
  }

  /** What a function returns, with its parameters bound to these arguments. */
  function returned(fn: FunctionNode, args: readonly ts.Expression[], env: Env, depth: number): string[] {
    const inner: Env = new Map(env);
    fn.parameters.forEach((parameter, i) => {
      const given = args[i] ?? parameter.initializer;
      // An argument that is no text (a context, a number read at run time) stays unknown until used.
      inner.set(parameter, given ? attempt(() => evaluate(given, env, depth + 1)) : undefined);
    });
    if (!fn.body) throw new NotFollowed();
    if (!ts.isBlock(fn.body)) return evaluate(fn.body, inner, depth + 1);
    const values: string[] = [];
    (function visit(node: ts.Node) {
      if (ts.isReturnStatement(node) && node.expression) values.push(...evaluate(node.expression, inner, depth + 1));
      else if (!isFunction(node)) ts.forEachChild(node, visit);
    })(fn.body);
    return values;
  }

  /** Every text an expression can be (null and undefined: none). */
  function evaluate(expression: ts.Expression, env: Env, depth: number): string[] {
    if (depth > 30) throw new NotFollowed();
    const node = unwrap(expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isNumericLiteral(node))
      return [node.text];
    if (node.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(node) && node.text === "undefined")) return [];
    if (ts.isTemplateExpression(node)) {
      let texts = [node.head.text];
      for (const span of node.templateSpans) {
        const found = attempt(() => evaluate(span.expression, env, depth + 1));
        const parts = found?.length ? found : [ANY];
        texts = texts.flatMap((text) => parts.map((part) => text + part + span.literal.text));
      }
      return texts;
    }
    if (ts.isConditionalExpression(node))
      return [...evaluate(node.whenTrue, env, depth + 1), ...evaluate(node.whenFalse, env, depth + 1)];
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      if (kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken)
        return [...evaluate(node.left, env, depth + 1), ...evaluate(node.right, env, depth + 1)];
      if (kind === ts.SyntaxKind.PlusToken) {
        const right = evaluate(node.right, env, depth + 1);
        return evaluate(node.left, env, depth + 1).flatMap((left) => right.map((r) => left + r));
      }
    }
    if (ts.isIdentifier(node)) {
      const declaration = declarationOf(node.text, node);
      if (declaration && ts.isParameter(declaration)) {
        if (!env.has(declaration)) return parameterValues(declaration, depth + 1);
        const bound = env.get(declaration);
        if (!bound) throw new NotFollowed();
        return bound;
      }
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return evaluate(declaration.initializer, env, depth + 1);
    }
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const name = ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
      const objects = objectsOf(node.expression, env, depth + 1);
      if (objects.length === 0) throw new NotFollowed();
      return objects.flatMap((object) =>
        object.properties.flatMap((property) =>
          ts.isPropertyAssignment(property) && (name === undefined || property.name.getText() === name)
            ? evaluate(property.initializer, env, depth + 1)
            : [],
        ),
      );
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "toLowerCase")
        return evaluate(callee.expression, env, depth + 1).map((text) => text.toLowerCase());
      // `LIST.join(", ")` of a constant list.
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "join" && ts.isIdentifier(callee.expression)) {
        const declaration = declarationOf(callee.expression.text, callee);
        const list =
          declaration && ts.isVariableDeclaration(declaration) && declaration.initializer
            ? unwrap(declaration.initializer)
            : undefined;
        if (list && ts.isArrayLiteralExpression(list)) {
          const separator = node.arguments[0] ? evaluate(node.arguments[0], env, depth + 1)[0] : ",";
          return [list.elements.map((element) => evaluate(element, env, depth + 1)[0]).join(separator)];
        }
      }
      const functions = functionsOf(callee, depth + 1);
      if (functions.length === 0) throw new NotFollowed();
      return functions.flatMap((fn) => returned(fn, node.arguments, env, depth + 1));
    }
    throw new NotFollowed();
  }

  /** HttpError and each class that extends it, read from their constructors' `super(status, message, …)`. */
  const errorClasses = new Map<string, ErrorClass>([["HttpError", { status: 0 }]]);
  for (const source of files.values())
    (function visit(node: ts.Node) {
      const base = ts.isClassDeclaration(node) ? node.heritageClauses?.[0]?.types[0] : undefined;
      if (ts.isClassDeclaration(node) && node.name && base?.expression.getText() === "HttpError") {
        const constructor = node.members.find(ts.isConstructorDeclaration);
        const superCall = constructor?.body?.statements
          .map((statement) => (ts.isExpressionStatement(statement) ? statement.expression : undefined))
          .find(
            (call): call is ts.CallExpression =>
              !!call && ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword,
          );
        const [status, message] = superCall?.arguments ?? [];
        if (status && ts.isNumericLiteral(status) && message) {
          const index = constructor!.parameters.findIndex((p) => p.name.getText() === message.getText());
          errorClasses.set(
            node.name.text,
            index >= 0
              ? { status: Number(status.text), argument: index, fallback: constructor!.parameters[index].initializer }
              : { status: Number(status.text), fixed: message },
          );
        }
      }
      ts.forEachChild(node, visit);
    })(source);

  const messages: ScannedMessage[] = [];
  const unresolved: Unresolved[] = [];
  function record(status: number, expression: ts.Expression) {
    try {
      for (const text of evaluate(expression, new Map(), 0)) messages.push({ status, text, at: where(expression) });
    } catch (err) {
      if (!(err instanceof NotFollowed)) throw err;
      unresolved.push({ at: where(expression), expression: expression.getText() });
    }
  }
  /** A zod message: text, or `{ message }` / `{ error }`, or an `error` function's answers. */
  function recordZod(argument: ts.Expression) {
    const node = unwrap(argument);
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties)
        if (property.name && ts.isIdentifier(property.name) && ["message", "error"].includes(property.name.text)) {
          if (ts.isPropertyAssignment(property)) recordZod(property.initializer);
          else if (ts.isShorthandPropertyAssignment(property)) record(400, property.name);
        }
    } else if (isFunction(node)) {
      if (ts.isBlock(node.body!)) unresolved.push({ at: where(node), expression: node.getText() });
      else record(400, node.body as ts.Expression);
    } else if (!ts.isRegularExpressionLiteral(node)) record(400, node);
  }

  for (const source of files.values()) {
    const usesZod = source.statements.some(
      (s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === "zod",
    );
    (function visit(node: ts.Node) {
      const errorClass =
        ts.isNewExpression(node) && ts.isIdentifier(node.expression) && errorClasses.get(node.expression.text);
      if (ts.isNewExpression(node) && errorClass) {
        const args = node.arguments ?? [];
        const isHttpError = errorClass.status === 0;
        const status = isHttpError
          ? args[0] && ts.isNumericLiteral(args[0])
            ? Number(args[0].text)
            : 0
          : errorClass.status;
        const message = isHttpError
          ? args[1]
          : errorClass.argument === undefined
            ? errorClass.fixed
            : (args[errorClass.argument] ?? errorClass.fallback);
        if (status && message) record(status, message);
        else if (message || !errorClass.fixed) unresolved.push({ at: where(node), expression: node.getText() });
        // The field messages: HttpError's third argument, the message's neighbour in ValidationError.
        const errors = isHttpError
          ? args[2]
          : errorClass.argument !== undefined
            ? args[errorClass.argument + 1]
            : undefined;
        if (status && errors && ts.isObjectLiteralExpression(errors))
          for (const property of errors.properties)
            if (ts.isPropertyAssignment(property)) record(status, property.initializer);
      }
      if (
        usesZod &&
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.getText() !== "Math"
      ) {
        const method = node.expression.name.text;
        const argument = ZOD_MESSAGE_FIRST.has(method)
          ? node.arguments[0]
          : ZOD_MESSAGE_SECOND.has(method)
            ? node.arguments[1]
            : undefined;
        if (argument) recordZod(argument);
        if (method === "addIssue" && node.arguments[0]) recordZod(node.arguments[0]);
        // z.string({ error }), z.enum(values, { error }), z.iso.datetime({ offset, error }) …
        for (const arg of node.arguments)
          if (ts.isObjectLiteralExpression(arg) && method !== "addIssue" && !ZOD_MESSAGE_SECOND.has(method))
            for (const property of arg.properties)
              if (property.name && ts.isIdentifier(property.name) && property.name.text === "error") {
                if (ts.isPropertyAssignment(property)) recordZod(property.initializer);
              }
      }
      // An answer written directly: `res.status(413).json({ statusCode: 413, message: "…" })`.
      if (ts.isObjectLiteralExpression(node)) {
        const field = (name: string) =>
          node.properties.find(
            (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name,
          );
        const status = field("statusCode")?.initializer;
        const message = field("message")?.initializer;
        if (status && ts.isNumericLiteral(status) && message) record(Number(status.text), message);
      }
      // A helper that hands zod its options: `const required = (label) => ({ error: (i) => … })`.
      if (usesZod && ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === "error") {
        const object = node.parent;
        if (ts.isParenthesizedExpression(object.parent) && isFunction(object.parent.parent))
          recordZod(node.initializer);
      }
      ts.forEachChild(node, visit);
    })(source);
  }
  return { messages, unresolved };
}
