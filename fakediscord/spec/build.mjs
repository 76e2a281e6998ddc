// Builds fakediscord/discord_api.json, the OpenAPI 3.1 document fakediscord judges every REST
// request by, from Discord's own description of its HTTP API (discord/discord-api-spec,
// specs/openapi.json, MIT) as the npm package discord-api-spec carries it: Zod schemas of every
// component schema (discord-api-spec/zod) and a TypeScript interface of every path, its
// parameters and its request body (build/discord-api-spec.ts).
//
// What it writes: `paths` (each operation's path and query parameters and its request body) and
// `components.schemas` (every schema a request can reach), in JSON Schema draft 2020-12 as
// OpenAPI 3.1 uses it. Responses are left out: the emulator writes its own answers and judges
// only what the bot sends. The output depends only on the locked packages (no dates, no absolute
// paths), so CI builds it again and compares (tests/fakediscord/test_emulator_spec.py).
//
// Usage: node build.mjs [OUTFILE]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import * as z from "zod/mini";
import * as zodSchemas from "discord-api-spec/zod";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.join(here, "..", "discord_api.json");
const packageDir = path.join(here, "node_modules", "discord-api-spec");
const version = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")).version;
const REF = "#/components/schemas/";

// Every named schema, in JSON Schema, each referring to the others by name. What Zod cannot
// name (a lazy reference's inner schema, reused) comes out as `__shared`'s `$defs`, kept as a
// schema of its own.
const registry = z.registry();
for (const [name, schema] of Object.entries(zodSchemas)) {
  if (name.endsWith("Schema") && schema && schema._zod) {
    registry.add(schema, { id: name.slice(0, -"Schema".length) });
  }
}
const converted = z.toJSONSchema(registry, {
  io: "input",
  unrepresentable: "any",
  cycles: "ref",
  reused: "ref",
  uri: (id) => REF + id,
  // `z.undefined()` in a union means "the field may be left out"; JSON has no undefined value,
  // so in JSON Schema that branch matches nothing (Zod would make it match everything).
  override: (ctx) => {
    if (ctx.zodSchema._zod.def.type === "undefined") ctx.jsonSchema.not = {};
  },
}).schemas;
const schemas = {};
for (const [name, schema] of Object.entries(converted)) {
  const { $schema, $id, ...rest } = schema;
  schemas[name] = rest;
}
// `#/components/schemas/__shared#/$defs/schemaN` is not a pointer a validator can follow from the
// document's root; every such definition becomes a schema of its own, `__sharedN`.
const shared = schemas.__shared?.$defs ?? {};
delete schemas.__shared;
for (const [name, schema] of Object.entries(shared)) {
  schemas[`__${name}`] = schema;
}
function relink(node) {
  if (Array.isArray(node)) return node.map(relink);
  if (node && typeof node === "object") {
    const copy = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        copy[key] = value.replace(`${REF}__shared#/$defs/`, `${REF}__`);
      } else {
        copy[key] = relink(value);
      }
    }
    return copy;
  }
  return node;
}
for (const name of Object.keys(schemas)) schemas[name] = relink(schemas[name]);

// The paths, read from the `Paths` interface of the TypeScript declarations.
const source = ts.createSourceFile(
  "discord-api-spec.ts",
  fs.readFileSync(path.join(packageDir, "build", "discord-api-spec.ts"), "utf8"),
  ts.ScriptTarget.Latest,
  true,
);
const pathsInterface = source.statements.find(
  (s) => ts.isInterfaceDeclaration(s) && s.name.text === "Paths",
);
if (!pathsInterface) throw new Error("discord-api-spec.ts has no Paths interface");

function nameOf(member) {
  const n = member.name;
  return ts.isStringLiteral(n) || ts.isIdentifier(n) ? n.text : n.getText(source);
}

function member(typeLiteral, name) {
  if (!typeLiteral || !ts.isTypeLiteralNode(typeLiteral)) return undefined;
  return typeLiteral.members.find((m) => ts.isPropertySignature(m) && nameOf(m) === name);
}

// A TypeScript type of the declarations, as JSON Schema.
function schemaOf(type) {
  switch (type.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return {};
    case ts.SyntaxKind.NullKeyword:
      return { type: "null" };
    default:
      break;
  }
  if (ts.isParenthesizedTypeNode(type)) return schemaOf(type.type);
  if (ts.isArrayTypeNode(type)) return { type: "array", items: schemaOf(type.elementType) };
  if (ts.isUnionTypeNode(type)) return { anyOf: type.types.map(schemaOf) };
  if (ts.isLiteralTypeNode(type)) {
    const literal = type.literal;
    if (literal.kind === ts.SyntaxKind.NullKeyword) return { type: "null" };
    if (ts.isStringLiteral(literal)) return { const: literal.text };
    if (ts.isNumericLiteral(literal)) return { const: Number(literal.text) };
    if (literal.kind === ts.SyntaxKind.TrueKeyword) return { const: true };
    if (literal.kind === ts.SyntaxKind.FalseKeyword) return { const: false };
  }
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText(source);
    if (!(name in schemas)) throw new Error(`no schema named ${name}`);
    return { $ref: REF + name };
  }
  if (ts.isTypeLiteralNode(type)) {
    const properties = {};
    const required = [];
    for (const m of type.members) {
      if (!ts.isPropertySignature(m) || !m.type) continue;
      properties[nameOf(m)] = schemaOf(m.type);
      if (!m.questionToken) required.push(nameOf(m));
    }
    return { type: "object", properties, ...(required.length ? { required } : {}) };
  }
  throw new Error(`cannot read the type ${type.getText(source)}`);
}

function parameters(typeLiteral, where) {
  const found = member(typeLiteral, where);
  if (!found || !found.type || !ts.isTypeLiteralNode(found.type)) return [];
  return found.type.members
    .filter((m) => ts.isPropertySignature(m) && m.type)
    .map((m) => ({
      name: nameOf(m),
      in: where,
      required: where === "path" || !m.questionToken,
      schema: schemaOf(m.type),
    }));
}

const paths = {};
for (const pathMember of pathsInterface.members) {
  const route = nameOf(pathMember);
  const operations = {};
  for (const operation of pathMember.type.members) {
    const method = nameOf(operation);
    const body = operation.type;
    const params = member(body, "parameters")?.type;
    const entry = {
      parameters: [...parameters(params, "path"), ...parameters(params, "query")],
    };
    // The operation's id is named in its responses' comments ("200 response for create_message").
    const comment = member(body, "responses")?.type?.getText(source).match(/response for (\w+)/);
    if (comment) entry.operationId = comment[1];
    const request = member(body, "requestBody");
    if (request?.type && request.type.kind !== ts.SyntaxKind.UndefinedKeyword) {
      const schema = schemaOf(request.type);
      entry.requestBody = {
        content: {
          "application/json": { schema },
          "multipart/form-data": { schema },
        },
      };
    }
    operations[method] = entry;
  }
  paths[route] = operations;
}

// Only what a request can reach: the schemas named by request bodies and parameters, and what
// those name in turn.
const reachable = new Set();
function visit(node) {
  if (Array.isArray(node)) return node.forEach(visit);
  if (!node || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(REF)) {
      const name = value.slice(REF.length);
      if (!reachable.has(name)) {
        reachable.add(name);
        visit(schemas[name]);
      }
    } else {
      visit(value);
    }
  }
}
visit(paths);
const kept = {};
for (const name of Object.keys(schemas).sort()) {
  if (reachable.has(name)) kept[name] = schemas[name];
}

const document = {
  openapi: "3.1.0",
  info: {
    title: "Discord HTTP API",
    version: "10",
    license: { name: "MIT", identifier: "MIT" },
    description:
      "Discord's OpenAPI description of its HTTP API (github.com/discord/discord-api-spec, " +
      `specs/openapi.json), as carried by the npm package discord-api-spec@${version}; ` +
      "request parameters, request bodies and the schemas they reach. Built by " +
      "fakediscord/spec/build.sh: do not edit.",
  },
  paths,
  components: { schemas: kept },
};
fs.writeFileSync(out, `${JSON.stringify(document, null, 1)}\n`);
